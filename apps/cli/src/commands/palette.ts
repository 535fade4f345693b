import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import { crudVerbs, outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import type { Output } from '../output.js';

const named = (noun: string, plural: string, columns: string[], update = true) =>
  crudVerbs(noun, plural, columns, update ? [] : ['update']);

export const paletteSpec: ServiceSpec = {
  service: 'palette',
  describe: 'Design system: tokens, components, patterns, standards, accessibility rules',
  resources: {
    tokens: {
      verbs: {
        ...named('Token', 'Tokens', ['id', 'name', 'category', 'group', 'cssVariable']),
        contrast: { op: 'tokenContrast', describe: 'Contrast ratio of two color tokens' },
      },
    },
    components: {
      verbs: {
        ...named('Component', 'Components', ['id', 'name', 'status', 'category']),
        'add-prop': 'addComponentProp',
        'add-variant': 'addComponentVariant',
        'add-example': 'addComponentExample',
      },
    },
    patterns: {
      verbs: {
        ...named('Pattern', 'Patterns', ['id', 'name', 'category']),
        'add-step': 'addPatternStep',
      },
    },
    standards: { verbs: named('Standard', 'Standards', ['id', 'name', 'category'], false) },
    rules: {
      describe: 'Accessibility rules (a11y)',
      verbs: named('Rule', 'Rules', ['id', 'name', 'severity', 'category'], false),
    },
  },
  verbs: {
    search: { op: 'search', args: ['q'], columns: ['kind', 'id', 'name', 'score', 'description'] },
  },
};

export function paletteCommands(program: Command): void {
  const root = serviceCommand(program, paletteSpec);
  root
    .command('export')
    .description(
      'Export the tokens: css, json (DTCG for Style Dictionary), dtcg (2025.10), tailwind or tailwind4',
    )
    .option('--format <format>', 'css, json, dtcg, tailwind or tailwind4', 'css')
    .option('-o, --output <file>', 'Write the output to this file instead of stdout')
    .action(async (opts: { format: string; output?: string }, cmd: Command) => {
      const data = await invoke<{ format: string; output: string }>('palette.export', {
        query: { format: opts.format },
      });
      const out = outputOf(cmd);
      if (opts.output) {
        writeFileSync(opts.output, data.output.endsWith('\n') ? data.output : `${data.output}\n`);
        out.data(data, undefined, () => `Wrote ${opts.format} export to ${opts.output}`);
      } else out.data(data, undefined, () => data.output);
    });
  root
    .command('import')
    .description(
      'Import DTCG 2025.10 token files or a resolver (its $ref files are read from beside it); the palette checks everything and writes all or nothing',
    )
    .argument('<file>', 'A token file, a resolver, or an export of --format dtcg')
    .argument('[more...]', 'More token files (merged in order), or files a resolver names')
    .option('--dry-run', 'Show what would change, write nothing')
    .option('--missing <what>', 'Tokens not in the files: keep (default) or delete', 'keep')
    .option(
      '--mode <mode=selector>',
      'CSS for a mode: brand:b=.brand-b, or theme:hc=[data-contrast="more"]|(prefers-contrast: more) (repeatable)',
      (value: string, all: string[]) => [...all, value],
      [] as string[],
    )
    .action(async (file: string, more: string[], opts: ImportOpts, cmd: Command) => {
      await importTokens([file, ...more], opts, outputOf(cmd));
    });
}

interface ImportOpts {
  dryRun?: boolean;
  missing: string;
  mode: string[];
}
interface ImportResult {
  dryRun: boolean;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  tokens: Array<{ path: string; action: string; category: string | null }>;
  modes: string[];
  ignored: Array<{ path: string; reason: string }>;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw usageError(`${file} is not valid JSON`);
  }
}

/** The file names a resolver's sources refer to (never URLs: the palette fetches nothing). */
function resolverRefs(resolver: Record<string, unknown>): string[] {
  const refs: string[] = [];
  JSON.stringify(resolver, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) refs.push(value);
    return value;
  });
  return refs;
}

/**
 * `platform palette import`: the files as they are, to POST /palette/import. A resolver goes with
 * the files it names (read from beside it) and those given; several token files are the sources
 * of one set, in order. The palette answers with what it did, or every problem of the files.
 */
export async function importTokens(files: string[], opts: ImportOpts, out: Output) {
  if (opts.missing !== 'keep' && opts.missing !== 'delete')
    throw usageError('--missing is keep or delete');
  const modes: Record<string, { selector: string; media: string | null }> = {};
  for (const mode of opts.mode) {
    const match = /^([^=\s]+:[^=\s]+)=([^|]+)(?:\|(.+))?$/.exec(mode);
    if (!match) throw usageError(`--mode ${mode}: <modifier>:<context>=<selector>[|<media query>]`);
    modes[match[1]] = { selector: match[2].trim(), media: match[3]?.trim() ?? null };
  }
  const docs = files.map((f) => ({ file: f, doc: readJson(f) }));
  const first = docs[0].doc as Record<string, unknown>;
  let body: Record<string, unknown>;
  if (first && typeof first === 'object' && ('resolver' in first || 'document' in first))
    body = { ...first }; // an export of --format dtcg with modes: { resolver, documents }
  else if (first && typeof first === 'object' && Array.isArray(first.resolutionOrder)) {
    const base = dirname(resolve(docs[0].file));
    const documents: Record<string, unknown> = {};
    for (const { file, doc } of docs.slice(1)) documents[relative(base, resolve(file))] = doc;
    for (const ref of resolverRefs(first)) {
      if (Object.hasOwn(documents, ref) || /^[a-z]+:/i.test(ref)) continue;
      const path = relative(base, resolve(base, ref));
      if (path.split(sep)[0] === '..' || isAbsolute(path))
        throw usageError(`$ref ${ref}: a resolver reads files from its own directory only`);
      documents[ref] = readJson(resolve(base, ref));
    }
    body = { resolver: first, documents };
  } else if (docs.length === 1) body = { document: first };
  else
    body = {
      resolver: {
        version: '2025.10',
        sets: { files: { sources: docs.map((d) => ({ $ref: d.file })) } },
        resolutionOrder: [{ $ref: '#/sets/files' }],
      },
      documents: Object.fromEntries(docs.map((d) => [d.file, d.doc])),
    };
  body.modes = { ...((body.modes as object) ?? {}), ...modes };
  const result = await invoke<ImportResult>('palette.importTokens', {
    body,
    query: { dryRun: opts.dryRun ?? false, missing: opts.missing },
  });
  out.data(result, undefined, () => {
    const would = result.dryRun ? 'would be ' : '';
    const lines = result.tokens
      .filter((t) => t.action !== 'unchanged')
      .map((t) => `${would}${t.action.padEnd(8)} ${t.path}${t.category ? ` (${t.category})` : ''}`);
    for (const i of result.ignored) lines.push(`ignored  ${i.path}: ${i.reason}`);
    const modes = result.modes.length > 0 ? `; modes: ${result.modes.join(', ')}` : '';
    const head = `${result.dryRun ? 'Dry run: ' : ''}${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged, ${result.deleted} deleted${modes}`;
    return [head, ...lines].join('\n');
  });
}
