import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import { listFiles } from '../files.js';
import type { Output } from '../output.js';

interface ImportResult {
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  entities: Array<{
    kind: string;
    name: string;
    target: string;
    action: string;
    changes: string[];
  }>;
  skipped: Array<{ kind: string; name: string; reason: string }>;
  ignored: string[];
  locations?: Array<{
    namespace: string;
    name: string;
    targets: Array<{ target: string; followed: boolean; reason: string | null }>;
  }>;
}

/** A file as the import names it (`source`): relative to the working directory, with `/`. */
const sourceOf = (file: string) => relative(process.cwd(), file).split(sep).join('/');

/** Descriptor files in a directory: Backstage's `catalog-info.yaml` (and `catalog-info-x.yml` ...). */
const DESCRIPTOR = /(^|\/)catalog-info[^/]*\.ya?ml$/i;

/** A YAML file at a directory's top that holds a Location (Backstage's `all.yaml`): read first. */
const ROOT_LOCATION = /^kind:\s*['"]?Location['"]?\s*$/m;

/**
 * The descriptor files given: files as they are; directories searched for catalog-info*.yaml,
 * and the YAML files at their top that hold a Location (Locations name the other files).
 */
function descriptorFiles(paths: string[]): string[] {
  return paths.flatMap((path) => {
    const { files } = listFiles(path);
    if (files.length === 1 && files[0] === '') return [path];
    const top = files.filter(
      (file) =>
        !file.includes('/') &&
        /\.ya?ml$/i.test(file) &&
        !DESCRIPTOR.test(file) &&
        ROOT_LOCATION.test(readFileSync(join(path, file), 'utf8')),
    );
    return [...files.filter((file) => DESCRIPTOR.test(file)), ...top].map((file) =>
      join(path, file),
    );
  });
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The files a Location read from `file` names, as Backstage reads `file` targets: relative to the
 * Location's file, a `*` in the last segment matching within its folder. Only files under the
 * directories given (or given themselves) are read; one missing there is reported; others are left
 * to the catalog, which reports them as not followed.
 */
function locationFiles(entity: Record<string, unknown>, file: string, paths: string[]) {
  const spec = (entity.spec ?? {}) as Record<string, unknown>;
  const name = String((entity.metadata as Record<string, unknown>).name);
  const found: string[] = [];
  const missing: string[] = [];
  if (spec.type !== undefined && spec.type !== 'file') return { found, missing };
  const roots = paths.map((path) => resolve(path));
  const inside = (target: string) =>
    roots.some((root) => target === root || target.startsWith(root + sep));
  const targets = [spec.target, ...(Array.isArray(spec.targets) ? spec.targets : [])];
  for (const target of targets) {
    if (typeof target !== 'string' || target === '' || URL_LIKE.test(target)) continue;
    const where = isAbsolute(target) ? target : resolve(dirname(file), target);
    if (!inside(where)) continue;
    const base = basename(where);
    let matched: string[] = [];
    if (base.includes('*')) {
      const glob = new RegExp(
        `^${base
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      );
      try {
        matched = readdirSync(dirname(where), { withFileTypes: true })
          .filter((entry) => entry.isFile() && glob.test(entry.name))
          .map((entry) => join(dirname(where), entry.name))
          .sort();
      } catch {
        matched = [];
      }
    } else if (statSync(where, { throwIfNoEntry: false })?.isFile()) matched = [where];
    if (matched.length === 0)
      missing.push(`${sourceOf(file)}: Location ${name} target ${target}: no such file`);
    found.push(...matched);
  }
  return { found, missing };
}

/** The descriptors of the files, and of the files their Locations name in turn (each read once). */
function readFollowing(files: string[], paths: string[], progress?: () => void) {
  const seen = new Set(files.map((file) => resolve(file)));
  const entities: unknown[] = [];
  const skipped: string[] = [];
  for (let batch = files; batch.length > 0;) {
    const read = readDescriptors(batch, progress);
    entities.push(...read.entities);
    skipped.push(...read.skipped);
    const next: string[] = [];
    for (const [i, entity] of read.entities.entries()) {
      const e = entity as Record<string, unknown>;
      if (String(e.kind).toLowerCase() !== 'location') continue;
      const { found, missing } = locationFiles(e, read.files[i], paths);
      skipped.push(...missing);
      for (const file of found)
        if (!seen.has(file)) {
          seen.add(file);
          next.push(file);
        }
    }
    batch = next;
  }
  return { entities, skipped };
}

/**
 * Every YAML document of the files: the Backstage entities, the documents left out (another
 * apiVersion than backstage.io/*: a Kubernetes manifest, a compose file), or every parse problem
 * at once (exit 2).
 */
export function readDescriptors(files: string[], progress?: () => void) {
  const entities: unknown[] = [];
  /** The file each entity comes from, in their order. */
  const from: string[] = [];
  const skipped: string[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const documents = parseAllDocuments(readFileSync(file, 'utf8'));
    for (const [i, doc] of (Array.isArray(documents) ? documents : [documents]).entries()) {
      const where = `${file} (document ${i + 1})`;
      if (doc.errors.length > 0) {
        problems.push(`${where}: ${doc.errors[0].message.split('\n')[0]}`);
        continue;
      }
      const value = doc.toJS() as Record<string, unknown> | null;
      if (value === null || value === undefined) continue;
      const version = typeof value === 'object' ? value.apiVersion : undefined;
      if (typeof version !== 'string' || !version.startsWith('backstage.io/'))
        skipped.push(`${where}: apiVersion ${String(version ?? 'missing')} is not backstage.io/*`);
      else if (!value.kind || !value.metadata)
        problems.push(`${where}: not a Backstage descriptor (kind and metadata are required)`);
      // Where it comes from: the catalog follows a Location whose target is another file sent.
      else {
        entities.push({ ...value, source: sourceOf(file) });
        from.push(file);
      }
    }
    progress?.();
  }
  if (problems.length > 0)
    throw usageError(`Cannot read the descriptors:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  return { entities, skipped, files: from };
}

/** `platform catalog import`: reads the descriptors and sends them in one request. */
export async function importCatalog(paths: string[], dryRun: boolean, out: Output): Promise<void> {
  const files = descriptorFiles(paths);
  if (files.length === 0) throw usageError(`No catalog-info*.yaml files in ${paths.join(', ')}`);
  const bar = out.progress(files.length, 'Reading');
  const { entities, skipped } = readFollowing(files, paths, () => bar.increment());
  bar.stop();
  // --json prints the API's answer only: the documents left out are said on stderr.
  if (out.options.json) for (const line of skipped) process.stderr.write(`skipped  ${line}\n`);
  const result = await invoke<ImportResult>('catalog.importEntities', {
    body: { entities, dryRun },
  });
  out.data(result, undefined, () => {
    const lines = result.entities
      .filter((e) => e.action !== 'unchanged')
      .map(
        (e) =>
          `${dryRun ? 'would be ' : ''}${e.action.padEnd(8)} ${e.kind} ${e.name}${e.changes.length ? ` (${e.changes.join(', ')})` : ''}`,
      );
    for (const s of result.skipped) lines.push(`skipped  ${s.kind} ${s.name}: ${s.reason}`);
    for (const line of skipped) lines.push(`skipped  ${line}`);
    for (const ignored of result.ignored) lines.push(`ignored  ${ignored}`);
    for (const location of result.locations ?? [])
      for (const t of location.targets)
        lines.push(
          `location ${location.name}: ${t.target} ${t.followed ? 'followed' : `not followed (${t.reason})`}`,
        );
    const head = `${dryRun ? 'Dry run: ' : ''}${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`;
    return [head, ...lines].join('\n');
  });
}
