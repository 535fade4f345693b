import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { envelopeOf, invoke, invokeRaw } from '../api.js';
import { loadConfig } from '../config.js';
import { CliError, usageError } from '../errors.js';
import { crudVerbs, outputOf, serviceCommand, type ServiceSpec } from '../generic.js';
import { fields, spinner, type Output } from '../output.js';

const money = (cents: unknown, currency: unknown) =>
  `${(Number(cents) / 100).toFixed(2)} ${String(currency ?? '')}`.trim();

export const billingSpec: ServiceSpec = {
  service: 'billing',
  describe: 'Spending items, categories, reports, provider sync',
  resources: {
    items: {
      verbs: {
        ...crudVerbs('Item', 'Items', ['id', 'name', 'amount', 'currency', 'provider', 'date']),
        'by-ref': { op: 'getItemByProviderRef', describe: 'The item of a provider reference' },
      },
    },
    categories: {
      singular: 'category',
      verbs: crudVerbs('Category', 'Categories', ['id', 'name', 'color', 'description']),
    },
    reports: {
      verbs: {
        summary: {
          op: 'reportSummary',
          human: (data) => {
            const row = data as Record<string, unknown>;
            return fields({ ...row, totalAmount: money(row.totalAmount, row.currency) });
          },
        },
        breakdown: { op: 'reportBreakdown', columns: ['key', 'amount', 'count', 'percentage'] },
        trend: { op: 'reportTrend', columns: ['date', 'amount', 'count'] },
      },
    },
    jobs: {
      describe: 'Sync jobs',
      verbs: {
        list: {
          op: 'listSyncJobs',
          columns: ['id', 'provider', 'status', 'itemsCreated', 'itemsUpdated', 'startedAt'],
        },
        get: 'getSyncJob',
        skipped: { op: 'listSkippedRows', columns: ['row', 'reason'] },
      },
    },
  },
  verbs: {
    status: 'getStatus',
    search: {
      op: 'search',
      args: ['q'],
      columns: ['id', 'name', 'amount', 'currency', 'provider'],
    },
    adapters: { op: 'listSyncAdapters', describe: 'Registered sync adapters' },
  },
};

interface Job {
  id: string;
  status: string;
  error?: string | null;
  rowsRead?: number;
  itemsCreated: number;
  itemsUpdated: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `--timeout <seconds>`: a number above 0 (exit 2 otherwise). */
function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw usageError(`--timeout must be seconds above 0: ${value}`);
  return n;
}

/**
 * Polls the job until it is no longer running, at most `timeout` seconds (then exit 1: the job
 * goes on on the server); prints it, and fails (exit 1) when the job failed.
 */
async function finish(job: Job, opts: Record<string, string | boolean>, out: Output) {
  if (opts.wait) {
    const timeout = seconds(opts.timeout as string);
    const deadline = Date.now() + timeout * 1000;
    const spin = spinner(out, `Sync ${job.id}`);
    try {
      while (job.status === 'running') {
        if (Date.now() >= deadline)
          throw new CliError(
            `Sync ${job.id} is still running after ${timeout} s; it goes on: platform billing jobs get ${job.id}`,
          );
        await sleep(Math.min(250, Math.max(0, deadline - Date.now())));
        job = await invoke<Job>('billing.getSyncJob', { path: { id: job.id } });
        spin.update(`${job.status}, ${job.rowsRead ?? 0} rows read`);
      }
    } finally {
      spin.stop();
    }
  }
  out.data(
    job,
    undefined,
    () =>
      `Sync ${job.id}: ${job.status}, ${job.itemsCreated} created, ${job.itemsUpdated} updated${job.error ? `: ${job.error}` : ''}`,
  );
  if (job.status === 'failed')
    throw new CliError(`Sync ${job.id} failed${job.error ? `: ${job.error}` : ''}`);
}

const waiting = (cmd: Command) =>
  cmd
    .option('--no-wait', 'Return once the job is accepted')
    .option('--timeout <seconds>', 'Longest wait for the job (it goes on after)', '600');

export function billingCommands(program: Command): void {
  const root = serviceCommand(program, billingSpec);
  waiting(
    root
      .command('sync')
      .description('Sync items from a provider and wait for the job to finish')
      .requiredOption('--provider <name>', 'Provider adapter (see billing adapters)')
      .option('--token <token>', 'Provider access token (or BILLING_SYNC_TOKEN)')
      .option('--from <date>', 'YYYY-MM-DD')
      .option('--to <date>', 'YYYY-MM-DD')
      .option('--project-id <id>', 'Provider project'),
  ).action(async (opts: Record<string, string | boolean>, cmd: Command) => {
    const body: Record<string, unknown> = { provider: opts.provider };
    const token = (opts.token as string) ?? process.env.BILLING_SYNC_TOKEN;
    if (token) body.token = token;
    for (const field of ['from', 'to', 'projectId'])
      if (opts[field] !== undefined) body[field] = opts[field];
    if (opts.wait) seconds(opts.timeout as string);
    await finish(await invoke<Job>('billing.startSync', { body }), opts, outputOf(cmd));
  });
  waiting(
    root
      .command('focus')
      .description('Upload a FOCUS cost CSV (streamed) and wait for its sync job')
      .argument('<file.csv>')
      .requiredOption('--from <date>', 'First day of the window (YYYY-MM-DD)')
      .requiredOption('--to <date>', 'Last day, inclusive (YYYY-MM-DD)'),
  ).action(async (file: string, opts: Record<string, string | boolean>, cmd: Command) => {
    try {
      statSync(file);
    } catch {
      throw usageError(`No such file: ${file}`);
    }
    if (opts.wait) seconds(opts.timeout as string);
    const response = await invokeRaw('billing.uploadFocus', {
      query: { from: opts.from as string, to: opts.to as string },
      raw: {
        body: Readable.toWeb(createReadStream(file)) as unknown as ReadableStream,
        type: 'text/csv',
      },
    });
    const { body } = await envelopeOf(response, loadConfig().url);
    await finish((body as { data: Job }).data, opts, outputOf(cmd));
  });
}
