import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { invoke } from '../api.js';
import { usageError } from '../errors.js';
import { crudVerbs, outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { importPalette } from '../imports/palette.js';

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
    .description('Export the tokens: css, json (DTCG), tailwind or tailwind4')
    .option('--format <format>', 'css, json, tailwind or tailwind4', 'css')
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
    .description('Import design tokens in the DTCG format (what `export --format json` writes)')
    .argument('<file>')
    .action(async (file: string, _opts: object, cmd: Command) => {
      if (!file) throw usageError('A tokens file is required');
      await importPalette(file, outputOf(cmd));
    });
}
