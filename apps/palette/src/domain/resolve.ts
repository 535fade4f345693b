/** What alias resolution needs of a token: its values and the tokens they are aliases of. */
export interface AliasedValues {
  id: string;
  value_default: string;
  value_dark: string | null;
  value_default_ref: string | null;
  value_dark_ref: string | null;
  /** Values in modes other than light and dark (`<modifier>:<context>`). */
  modes?: Record<string, { value: string; ref: string | null; source?: unknown }>;
}

/** `light` (the default values), `dark` (also `theme:dark`), or `<modifier>:<context>`. */
export type Mode = string;

/** The value (or alias) a token has in a mode: its value there if it has one, else its default. */
export function modeValue(t: AliasedValues, mode: Mode) {
  if ((mode === 'dark' || mode === 'theme:dark') && t.value_dark !== null)
    return { value: t.value_dark, ref: t.value_dark_ref };
  const other = t.modes?.[mode];
  return other ?? { value: t.value_default, ref: t.value_default_ref };
}

/**
 * The literal value a token ends at in a mode, following aliases (each target in the same mode),
 * or null when the chain is broken or loops (writes refuse both; this guards old or raced data).
 */
export function resolveValue<T extends AliasedValues>(
  token: T,
  mode: Mode,
  lookup: (id: string) => T | undefined,
): { value: string; token: T } | null {
  let at: T | undefined = token;
  for (let hops = 0; at && hops <= 100; hops += 1) {
    const { value, ref } = modeValue(at, mode);
    if (ref === null) return { value, token: at };
    at = lookup(ref);
  }
  return null;
}
