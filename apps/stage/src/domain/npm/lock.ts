import { builtinModules } from 'node:module';
import { validRange } from 'semver';
import { NpmError } from './registry.js';

export const PACKAGE_JSON = '/app/package.json';
export const PACKAGE_LOCK = '/app/package-lock.json';

/** One installed package, as npm's lock file (v3) records it under `packages`. */
export interface LockEntry {
  version: string;
  resolved: string;
  integrity: string;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/** A session's files by path (text, or the bytes of a binary file). */
export type Files = ReadonlyMap<string, string | Uint8Array>;

const textOf = (files: Files, path: string) => {
  const content = files.get(path);
  return content === undefined || typeof content === 'string' ? content : Buffer.from(content).toString('utf8'); // prettier-ignore
};

/** Installed packages by their folder: `node_modules/a`, `node_modules/a/node_modules/b`. */
export type Tree = Map<string, LockEntry>;

/** The packages the platform provides itself: never fetched (peers on them resolve to its copies). */
export const PLATFORM_PACKAGES = new Set(['react', 'react-dom']);

/** What npm takes as a package name (lower case, URL-safe, an optional scope). */
export const isPackageName = (name: string) => NAME.test(name) && name.length <= 214;
/** Node.js modules whose npm namesakes are the browser ports bundlers use (buffer, events...). */
const PORTED = new Set(['assert', 'buffer', 'events', 'path', 'process', 'punycode', 'querystring', 'string_decoder', 'url', 'util']); // prettier-ignore

const NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;
const TAG = /^[A-Za-z][\w.-]*$/;

/** The package a bare import names (`@scope/name/sub` → `@scope/name`), or null if not one. */
export function packageOf(spec: string): string | null {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return NAME.test(name) && name.length <= 214 ? name : null;
}

/**
 * Why a bare import (neither a session file nor a module of the platform) cannot be one of a
 * package (a Node.js module, a URL, a path going up), or null when it can.
 */
export function notAPackage(spec: string): string | null {
  const refused = (why: string) => `"${spec}" cannot be imported: ${why}`;
  const name = packageOf(spec);
  if (spec.startsWith('node:') || (name && builtinModules.includes(name) && !PORTED.has(name)))
    return refused('it is a Node.js module, not available here');
  if (/^[a-z][a-z0-9+.-]*:/i.test(spec))
    return refused('imports by URL are not supported (name an npm package, or a file of the session)'); // prettier-ignore
  if (spec.split('/').some((part) => part === '.' || part === '..'))
    return refused('a package path may not contain "." or ".." segments');
  if (!name) return refused(`"${spec.split('/')[0]}" is not an npm package name`);
  return null;
}

/** Whether `spec` is a version range or a dist-tag (what a lock may be asked for). */
export function checkSpec(spec: string, name: string, wantedBy: string): string {
  if (validRange(spec) !== null || TAG.test(spec)) return spec;
  throw new NpmError(
    `${wantedBy} asks for "${name}" at "${spec}", which is not a version range or a tag of the npm registry`,
  );
}

/** The `dependencies` of the session's /app/package.json (empty without one), checked. */
export function readManifest(files: Files) {
  const text = textOf(files, PACKAGE_JSON);
  if (text === undefined) return { name: undefined, dependencies: new Map<string, string>() };
  const json = parse(text, PACKAGE_JSON) as { name?: unknown; dependencies?: unknown };
  const deps = json.dependencies ?? {};
  if (typeof deps !== 'object' || deps === null || Array.isArray(deps))
    throw new NpmError(`${PACKAGE_JSON}: "dependencies" must be an object of names and ranges`);
  const dependencies = new Map<string, string>();
  for (const [name, spec] of Object.entries(deps)) {
    if (PLATFORM_PACKAGES.has(name) || name.startsWith('@stage/')) continue;
    if (!NAME.test(name)) throw new NpmError(`${PACKAGE_JSON}: "${name}" is not an npm package name`); // prettier-ignore
    if (typeof spec !== 'string') throw new NpmError(`${PACKAGE_JSON}: the range of "${name}" must be a string`); // prettier-ignore
    dependencies.set(name, checkSpec(spec.trim() || '*', name, PACKAGE_JSON));
  }
  return { name: typeof json.name === 'string' ? json.name : undefined, dependencies };
}

/** The session's lock: the packages pinned so far and the root's wanted ranges (none without one). */
export function readLock(files: Files) {
  const text = textOf(files, PACKAGE_LOCK);
  const tree: Tree = new Map();
  const wanted = new Map<string, string>();
  if (text === undefined) return { text, tree, wanted };
  const json = parse(text, PACKAGE_LOCK) as { packages?: Record<string, Partial<LockEntry>> };
  const packages = json.packages ?? {};
  for (const [name, spec] of Object.entries(packages['']?.dependencies ?? {}))
    if (typeof spec === 'string' && NAME.test(name)) wanted.set(name, spec);
  for (const [path, entry] of Object.entries(packages)) {
    // Pins without what checks them are worked out again, from the registry.
    if (!path.startsWith('node_modules/') || !entry?.version || !entry.integrity) continue;
    if (typeof entry.resolved !== 'string') continue;
    tree.set(path, entry as LockEntry);
  }
  return { text, tree, wanted };
}

/** The lock file for `tree`: npm's v3 shape, in a stable order (the same tree, the same text). */
export function writeLock(name: string | undefined, wanted: Map<string, string>, tree: Tree) {
  const packages: Record<string, unknown> = {
    '': { name: name ?? 'app', dependencies: sorted(wanted) },
  };
  for (const path of [...tree.keys()].sort()) {
    const { version, resolved, integrity, license, ...edges } = tree.get(path)!;
    packages[path] = { version, resolved, integrity, ...(license ? { license } : {}), ...edges };
  }
  const lock = { name: name ?? 'app', lockfileVersion: 3, requires: true, packages };
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** The name a lock path installs: the part after its last `node_modules/`. */
export const nameAt = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 13);

/**
 * What a package needs installed: its dependencies (optional ones left out: they are mostly
 * native builds for one platform) and its peers that are not optional (npm 7 and later install
 * them too), except the packages the platform provides.
 */
export function edgesOf(entry: Omit<LockEntry, 'resolved' | 'integrity'>): Map<string, string> {
  const edges = new Map<string, string>();
  const optional = new Set(Object.keys(entry.optionalDependencies ?? {}));
  for (const [name, spec] of Object.entries(entry.dependencies ?? {}))
    if (!optional.has(name)) edges.set(name, spec);
  for (const [name, spec] of Object.entries(entry.peerDependencies ?? {}))
    if (!entry.peerDependenciesMeta?.[name]?.optional && !edges.has(name)) edges.set(name, spec);
  for (const name of PLATFORM_PACKAGES) edges.delete(name);
  return edges;
}

function sorted(map: Map<string, string>) {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function parse(text: string, path: string): unknown {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object'); // prettier-ignore
    return json;
  } catch (error) {
    throw new NpmError(`${path} is not a JSON object (${(error as Error).message})`);
  }
}
