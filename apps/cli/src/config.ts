import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT, usageError } from './errors.js';

/** What `platform init` stores. */
export interface Config {
  url: string;
  apiKey?: string;
}

/** `$XDG_CONFIG_HOME/platform/config.json`, `~/.config/platform/config.json` by default. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'platform', 'config.json');
}

function readStored(path: string): Partial<Config> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const broken = (why: string) =>
    new CliError(`${path} ${why}: run "platform init --url <url>" to write it again`);
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    throw broken('is not valid JSON');
  }
  if (!stored || typeof stored !== 'object' || Array.isArray(stored))
    throw broken('does not hold a JSON object');
  const { url, apiKey } = stored as Record<string, unknown>;
  for (const [field, value] of [
    ['url', url],
    ['apiKey', apiKey],
  ] as const)
    if (value !== undefined && typeof value !== 'string')
      throw broken(`has a ${field} that is not a string (${JSON.stringify(value)})`);
  return stored as Partial<Config>;
}

/** The stored config, if any, without the environment's overrides. */
export const storedConfig = (env: NodeJS.ProcessEnv = process.env) => readStored(configPath(env));

/**
 * The gateway URL and API key: PLATFORM_URL and PLATFORM_API_KEY over the stored file (not read
 * at all when both are set, so a broken file does not stand in the way). Exit 3 when there is no
 * URL at all.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const stored =
    env.PLATFORM_URL && env.PLATFORM_API_KEY ? {} : (readStored(configPath(env)) ?? {});
  const url = env.PLATFORM_URL || stored.url;
  if (!url)
    throw new CliError(
      `Not initialized: run "platform init" (or set PLATFORM_URL). Looked in ${configPath(env)}`,
      EXIT.NOT_INITIALIZED,
    );
  const apiKey = env.PLATFORM_API_KEY || stored.apiKey || undefined;
  return { url: url.replace(/\/+$/, ''), ...(apiKey ? { apiKey } : {}) };
}

/** A gateway URL as stored: http(s), no trailing slash. */
export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw usageError(`Not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw usageError(`The gateway URL must be http or https: ${url}`);
  return url.replace(/\/+$/, '');
}

/** Writes the config readable by its owner only (file 0600, directory 0700). */
export function saveConfig(config: Config, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}
