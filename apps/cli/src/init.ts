import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { checkUrl, configPath, saveConfig, storedConfig, type Config } from './config.js';
import { usageError } from './errors.js';
import { outputOf } from './generic.js';

/** Asks on the terminal; the answer, or the default when it is left empty. */
async function ask(question: string, fallback?: string): Promise<string | undefined> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(`${question}${fallback ? ` [${fallback}]` : ''}: `)).trim();
    return answer || fallback;
  } finally {
    rl.close();
  }
}

/** The stored config, or nothing when it cannot be read: init is how a broken file is repaired. */
function previous(): Partial<Config> {
  try {
    return storedConfig() ?? {};
  } catch (error) {
    process.stderr.write(`Replacing it: ${(error as Error).message.split(':')[0]}\n`);
    return {};
  }
}

/** `--key -`: the key from stdin (kept out of the shell history), its line break dropped. */
function keyOption(value: string | undefined): string | undefined {
  if (value !== '-') return value;
  const key = readFileSync(0, 'utf8').trim();
  if (!key) throw usageError('--key -: stdin held no key');
  return key;
}

export function initCommand(program: Command): void {
  program
    .command('init')
    .description('Store the gateway URL and an API key (asks when run in a terminal)')
    .option('--url <url>', 'Gateway URL, e.g. http://localhost:3000')
    .option(
      '--key <apiKey>',
      'API key (platform passport keys create); - reads it from stdin, "" removes the stored one; left out, the stored key is kept',
    )
    .action(async (opts: { url?: string; key?: string }, cmd: Command) => {
      const before = previous();
      const interactive = process.stdin.isTTY && process.stderr.isTTY;
      let url = opts.url;
      let key = keyOption(opts.key);
      if (url === undefined && interactive)
        url = await ask('Gateway URL', before.url ?? 'http://localhost:3000');
      if (key === undefined && interactive && opts.url === undefined)
        key = await ask('API key (empty when auth is off)', before.apiKey ? '(keep)' : undefined);
      // Not given (or "(keep)"): the stored key stays; only an explicit "" removes it.
      if (key === undefined || key === '(keep)') key = before.apiKey;
      if (!url)
        throw usageError(
          'Give the gateway URL: platform init --url <url> [--key <apiKey> | --key -]',
        );
      const config = { url: checkUrl(url), ...(key ? { apiKey: key } : {}) };
      const path = saveConfig(config);
      outputOf(cmd).data(
        { url: config.url, apiKey: !!config.apiKey, path },
        undefined,
        () => `Saved ${config.url}${config.apiKey ? ' and the API key' : ''} to ${path}`,
      );
    });
  program
    .command('config')
    .description('Show where the configuration is and what it holds (never the key)')
    .action((_opts: object, cmd: Command) => {
      const stored = storedConfig() ?? {};
      const data = {
        path: configPath(),
        url: process.env.PLATFORM_URL || stored.url || null,
        urlFrom: process.env.PLATFORM_URL ? 'PLATFORM_URL' : stored.url ? 'config' : null,
        apiKey: !!(process.env.PLATFORM_API_KEY || stored.apiKey),
        apiKeyFrom: process.env.PLATFORM_API_KEY
          ? 'PLATFORM_API_KEY'
          : stored.apiKey
            ? 'config'
            : null,
      };
      outputOf(cmd).data(data);
    });
}
