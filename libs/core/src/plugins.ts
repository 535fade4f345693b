const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * The plugin, with the name Fastify reads before registering it. An unnamed one makes Fastify
 * look for the module exporting it among every module loaded (`require.cache`), twice per
 * registration: in Jest's module registry that search took 1.2 s of a whole gateway's 1.7 s of
 * registering. Every plugin of ours is registered through this (route modules by `defineService`).
 */
export function named<P extends object>(plugin: P, name?: string): P {
  const holder = plugin as P & { [DISPLAY_NAME]?: string; name?: string };
  // Unnamed (an inline scope): the start of its source, as Fastify itself names such a plugin.
  holder[DISPLAY_NAME] ??=
    name ??
    (holder.name ||
      String(plugin)
        .split('\n', 2)
        .map((line) => line.trim())
        .join(' -- '));
  return plugin;
}
