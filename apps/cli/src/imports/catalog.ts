import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
}

/** Descriptor files in a directory: Backstage's `catalog-info.yaml` (and `catalog-info-x.yml` ...). */
const DESCRIPTOR = /(^|\/)catalog-info[^/]*\.ya?ml$/i;

/** The descriptor files given: files as they are, directories searched for catalog-info*.yaml. */
function descriptorFiles(paths: string[]): string[] {
  return paths.flatMap((path) => {
    const { files } = listFiles(path);
    if (files.length === 1 && files[0] === '') return [path];
    return files.filter((file) => DESCRIPTOR.test(file)).map((file) => join(path, file));
  });
}

/**
 * Every YAML document of the files: the Backstage entities, the documents left out (another
 * apiVersion than backstage.io/*: a Kubernetes manifest, a compose file), or every parse problem
 * at once (exit 2).
 */
export function readDescriptors(files: string[], progress?: () => void) {
  const entities: unknown[] = [];
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
      else entities.push(value);
    }
    progress?.();
  }
  if (problems.length > 0)
    throw usageError(`Cannot read the descriptors:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  return { entities, skipped };
}

/** `platform catalog import`: reads the descriptors and sends them in one request. */
export async function importCatalog(paths: string[], dryRun: boolean, out: Output): Promise<void> {
  const files = descriptorFiles(paths);
  if (files.length === 0) throw usageError(`No catalog-info*.yaml files in ${paths.join(', ')}`);
  const bar = out.progress(files.length, 'Reading');
  const { entities, skipped } = readDescriptors(files, () => bar.increment());
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
    const head = `${dryRun ? 'Dry run: ' : ''}${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`;
    return [head, ...lines].join('\n');
  });
}
