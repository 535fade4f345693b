import { maxSatisfying, satisfies, validRange } from 'semver';
import { checkSpec, edgesOf, isPackageName, nameAt, type LockEntry, type Tree } from './lock.js';
import { NpmError, type Manifest, type Packument } from './registry.js';
import { integrityOf } from './tarball.js';

interface Item {
  /** The folder of the package that wants it ('' for the app). */
  from: string;
  name: string;
  spec: string;
  /** Who wants it, for messages: `/app/package.json`, `an import`, `debug@4.4.3`. */
  by: string;
}

export interface ResolveOptions {
  /** The session's earlier pins: reused wherever they still satisfy what is wanted. */
  pinned: Tree;
  packument: (name: string) => Promise<Packument>;
  maxPackages: number;
}

/**
 * The packages to install for the app's `wanted` ones (name → range or tag) and, transitively,
 * theirs, laid out as npm lays out node_modules: each package at the top level when free
 * (hoisted, so shared versions are installed once), nested under the package that wants it when
 * the top level holds a version that does not satisfy it. Breadth-first, so a package's own
 * dependencies are placed before those of the packages below it (a nested copy never shadows one
 * a deeper package already resolved). Versions come from `pinned` when they satisfy, else the
 * registry: its `latest` when that satisfies, else the highest version that does.
 */
export async function resolveTree(
  wanted: ReadonlyArray<{ name: string; spec: string; by: string }>,
  options: ResolveOptions,
): Promise<Tree> {
  const tree: Tree = new Map();
  const documents = new Map<string, Promise<Packument>>();
  const packument = (name: string) => {
    let doc = documents.get(name);
    if (!doc) {
      doc = options.packument(name);
      documents.set(name, doc);
    }
    return doc;
  };
  let level: Item[] = [...wanted]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((want) => ({ from: '', ...want }));
  while (level.length > 0) {
    // The documents this level needs, fetched together; a failure surfaces below, in order.
    const needed = level.filter((item) => !visibleMatch(tree, item) && !pinFor(options.pinned, item)); // prettier-ignore
    await Promise.allSettled(needed.map((item) => packument(item.name)));
    const next: Item[] = [];
    for (const item of level) {
      const found = visible(tree, item.from, item.name);
      if (found && matches(tree.get(found)!.version, item.spec)) continue;
      // Free at the top: hoisted there; taken by a version that does not do: nested.
      const dest = `${found && item.from ? `${item.from}/` : ''}node_modules/${item.name}`;
      const entry =
        pinFor(options.pinned, item, dest) ?? fromRegistry(await packument(item.name), item);
      tree.set(dest, entry);
      if (tree.size > options.maxPackages)
        throw new NpmError(
          `The app needs more than ${options.maxPackages} npm packages (STAGE_NPM_MAX_PACKAGES), the last one "${item.name}" (wanted by ${item.by})`,
        );
      const by = `${item.name}@${entry.version}`;
      const edges = [...edgesOf(entry)].sort(([a], [b]) => (a < b ? -1 : 1));
      for (const [name, spec] of edges) {
        if (!isPackageName(name))
          throw new NpmError(`${by} depends on "${name}", which is not an npm package name`);
        next.push({ from: dest, name, spec: checkSpec(spec.trim() || '*', name, by), by });
      }
    }
    level = next;
  }
  return tree;
}

/** The folder a package at `from` finds `name` in, as Node.js looks (its own, then upwards). */
function visible(tree: Tree, from: string, name: string): string | undefined {
  for (let base = from; ;) {
    const path = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (tree.has(path)) return path;
    if (!base) return undefined;
    const up = base.lastIndexOf('/node_modules/');
    base = up === -1 ? '' : base.slice(0, up);
  }
}

const visibleMatch = (tree: Tree, item: Item) => {
  const found = visible(tree, item.from, item.name);
  return found !== undefined && matches(tree.get(found)!.version, item.spec);
};

/** A tag (`latest`) is what the lock pinned it to; a range must be satisfied. */
const matches = (version: string, spec: string) =>
  validRange(spec) === null || satisfies(version, spec, { includePrerelease: false });

/** An earlier pin of the package that satisfies: the one at the same folder first. */
function pinFor(pinned: Tree, item: Item, dest?: string): LockEntry | undefined {
  const same = dest ? pinned.get(dest) : undefined;
  if (same && matches(same.version, item.spec)) return same;
  for (const [path, entry] of pinned)
    if (nameAt(path) === item.name && matches(entry.version, item.spec)) return entry;
  return undefined;
}

function fromRegistry(doc: Packument, item: Item): LockEntry {
  const versions = Object.keys(doc.versions);
  const latest = doc['dist-tags'].latest;
  let version: string | null;
  if (validRange(item.spec) === null) version = doc['dist-tags'][item.spec] ?? null;
  else if (latest && doc.versions[latest] && satisfies(latest, item.spec)) version = latest;
  else version = maxSatisfying(versions, item.spec);
  const manifest = version ? doc.versions[version] : undefined;
  if (!manifest)
    throw new NpmError(
      `No version of "${item.name}" matches "${item.spec}" (wanted by ${item.by}); the registry has ${latest ? `${latest} as latest` : 'no latest version'}`,
    );
  return entryOf(manifest);
}

function entryOf(manifest: Manifest): LockEntry {
  const entry: LockEntry = {
    version: manifest.version,
    resolved: manifest.dist.tarball,
    integrity: integrityOf(manifest),
  };
  if (typeof manifest.license === 'string') entry.license = manifest.license;
  for (const key of [
    'dependencies',
    'optionalDependencies',
    'peerDependencies',
    'peerDependenciesMeta',
  ] as const) {
    const value = manifest[key];
    if (value && typeof value === 'object' && Object.keys(value).length > 0)
      (entry as unknown as Record<string, unknown>)[key] = value;
  }
  return entry;
}
