import type { Command } from 'commander';
import { outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { importPulse } from '../imports/pulse.js';

export const pulseSpec: ServiceSpec = {
  service: 'pulse',
  describe: 'Analytics events and the top-events report',
  resources: {
    events: {
      verbs: {
        list: { op: 'listEvents', columns: ['id', 'name', 'userId', 'sessionId', 'timestamp'] },
        get: 'getEvent',
        create: { op: 'trackEvent', args: ['name'] },
      },
    },
  },
  verbs: {
    top: { op: 'topEvents', columns: ['name', 'count'], describe: 'The most frequent events' },
  },
};

export function pulseCommands(program: Command): void {
  serviceCommand(program, pulseSpec)
    .command('import')
    .description('Import events from an NDJSON file (one event per line), in batches')
    .argument('<file>')
    .option('--batch-size <n>', 'Events per request (default 500)')
    .action(async (file: string, opts: { batchSize?: string }, cmd: Command) =>
      importPulse(file, Number(opts.batchSize ?? 500), outputOf(cmd)),
    );
}
