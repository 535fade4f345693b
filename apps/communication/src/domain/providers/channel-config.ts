import {
  badRequest,
  decryptSecret,
  deriveKey,
  encryptSecret,
  type AuthSettings,
} from '@platform/core';
import { CHANNEL_VARIABLE_PREFIX, type CommunicationConfig } from '../../config.js';
import type { Provider, StoredConfig } from '../../database.js';
import { unboundReference } from './bindings.js';
import { permanent } from './errors.js';

// A channel's config: validated per provider when written, literal secrets encrypted at rest and
// masked in answers, `env:CHANNEL_...` references kept verbatim and resolved only when sending.

/** What a literal secret reads as in every answer. */
export const MASK = '********';
const ENV_PREFIX = 'env:';
const ENV_REFERENCE = new RegExp(`^env:${CHANNEL_VARIABLE_PREFIX}[A-Za-z0-9_]+$`);

type Kind = 'text' | 'url' | 'sender' | 'port' | 'boolean';
interface Field {
  kind: Kind;
  required?: boolean;
  /** Encrypted at rest, masked in answers, never logged. */
  secret?: boolean;
  minLength?: number;
}

/** The config keys of each provider. A Slack incoming-webhook URL carries its token: a secret. */
export const CONFIG_FIELDS: Record<Provider, Record<string, Field>> = {
  smtp: {
    host: { kind: 'text', required: true },
    port: { kind: 'port' },
    secure: { kind: 'boolean' },
    user: { kind: 'text' },
    pass: { kind: 'text', secret: true },
    from: { kind: 'sender', required: true },
  },
  slack: { webhookUrl: { kind: 'url', required: true, secret: true } },
  webhook: {
    url: { kind: 'url', required: true },
    secret: { kind: 'text', required: true, secret: true, minLength: 16 },
  },
  log: {},
  inbox: {},
};

/** Where a stored secret goes: changing one of these needs the secret given again. */
const DESTINATION_FIELDS: Record<Provider, string[]> = {
  smtp: ['host', 'port', 'user'],
  slack: [],
  webhook: ['url'],
  log: [],
  inbox: [],
};

const secretKeys = (provider: Provider) =>
  Object.entries(CONFIG_FIELDS[provider])
    .filter(([, field]) => field.secret)
    .map(([key]) => key)
    .join(', ') || 'none for this provider';

export type ConfigValue = string | number | boolean;
export type ConfigInput = Record<string, unknown>;
/** The CHANNEL_ variables and where each may be sent (CHANNEL_X_DESTINATION). */
export type ChannelVariables = Pick<CommunicationConfig, 'channelEnv' | 'channelBindings'>;

/** Encrypts and decrypts literal secrets; null without SESSION_SECRET (authentication off). */
export function secretVault(auth: AuthSettings) {
  if (!auth.sessionSecret) return null;
  const key = deriveKey(auth.sessionSecret, 'communication secrets');
  return {
    seal: (plaintext: string) => encryptSecret(key, plaintext),
    open: (ciphertext: string) => decryptSecret(key, ciphertext),
  };
}
export type Vault = ReturnType<typeof secretVault>;

/** `an smtp channel`, `a webhook channel`. */
const channelOf = (provider: Provider) => `${provider === 'smtp' ? 'an' : 'a'} ${provider} channel`;

const isReference = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(ENV_PREFIX);

/** The value of a CHANNEL_ variable, or undefined (never a property of Object.prototype). */
const valueOf = (env: Readonly<Record<string, string>>, name: string) =>
  Object.hasOwn(env, name) ? env[name] : undefined;

const SENDER = /^([^<>]*<)?[^\s@<>,]+@[^\s@<>,]+>?$/;

/** Checks a literal value of one kind; the problem in words, or undefined when it is fine. */
function problem(kind: Kind, value: unknown, minLength = 1): string | undefined {
  switch (kind) {
    case 'port':
      return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535
        ? undefined
        : 'must be an integer from 1 to 65535';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    default: {
      if (typeof value !== 'string') return 'must be a string';
      if (value.length < minLength || value.length > 2000)
        return `must be ${minLength} to 2000 characters long`;
      if (kind === 'sender' && !SENDER.test(value.trim()))
        return 'must be an email address (address@host or "Name <address@host>")';
      if (kind === 'url') {
        let url: URL;
        try {
          url = new URL(value);
        } catch {
          return 'must be an absolute http or https URL';
        }
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          return 'must be an absolute http or https URL';
      }
      return undefined;
    }
  }
}

/**
 * The config to store for a channel of `provider`: every key known and checked, `env:` references
 * allowed in secret fields only and limited to CHANNEL_ variables, literal secrets encrypted. A
 * secret sent as the mask keeps the one stored in `previous` (a PATCH of a config read back from
 * GET), unless the destination changed (smtp host, port, user; webhook url): a stored secret is
 * never sent to a new destination without being given again. Each `env:` reference must be bound
 * to the channel's host or URL (CHANNEL_X_DESTINATION): a 400 naming the variable and the host.
 */
export function storableConfig(
  provider: Provider,
  input: ConfigInput,
  vault: Vault,
  variables: ChannelVariables,
  previous?: StoredConfig,
): StoredConfig {
  const fields = CONFIG_FIELDS[provider];
  const known = Object.keys(fields);
  for (const key of Object.keys(input))
    if (!(key in fields))
      throw badRequest(
        `config has an unknown field for ${channelOf(provider)}: ${key} (${known.length ? `its fields: ${known.join(', ')}` : 'it takes none'})`,
      );
  const stored: StoredConfig = {};
  /** Secrets sent as the mask: kept from `previous`. */
  const keptSecrets: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const value = input[key];
    if (value === undefined || value === null) {
      if (field.required) throw badRequest(`config.${key} is required for ${channelOf(provider)}`);
      continue;
    }
    if (isReference(value)) {
      if (!field.secret)
        throw badRequest(
          `config.${key} cannot be an env: reference: only secret fields (${secretKeys(provider)}) can name a variable`,
        );
      if (!ENV_REFERENCE.test(value))
        throw badRequest(
          `config.${key}: an env reference may only name a variable starting with ${CHANNEL_VARIABLE_PREFIX} (for example env:${CHANNEL_VARIABLE_PREFIX}SMTP_PASS), got ${value}`,
        );
      stored[key] = value;
      continue;
    }
    if (field.secret && value === MASK) {
      const kept = previous?.[key];
      if (kept === undefined)
        throw badRequest(
          `config.${key} is the mask ${MASK} but this channel has no ${key} to keep`,
        );
      stored[key] = kept;
      keptSecrets.push(key);
      continue;
    }
    const wrong = problem(field.kind, value, field.minLength);
    if (wrong) throw badRequest(`config.${key} ${wrong}`);
    if (field.secret) {
      if (!vault)
        throw badRequest(
          `config.${key} is a secret: without authentication (SESSION_SECRET) it cannot be stored encrypted; use an env:${CHANNEL_VARIABLE_PREFIX}... reference or turn authentication on`,
        );
      stored[key] = vault.seal(value as string);
    } else stored[key] = typeof value === 'string' ? value.trim() : (value as ConfigValue);
  }
  // A stored secret goes only where it went before: new destination, the secret given again.
  const moved = DESTINATION_FIELDS[provider].filter((key) => stored[key] !== previous?.[key]);
  if (keptSecrets.length > 0 && moved.length > 0)
    throw badRequest(
      `config.${keptSecrets[0]} is the mask ${MASK} but config.${moved.join(', config.')} changed: give the secret again for a new destination`,
    );
  if (provider === 'smtp' && stored.pass !== undefined && stored.user === undefined)
    throw badRequest('config.pass needs config.user (the SMTP login)');
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored))
    values[key] = isReference(value)
      ? valueOf(variables.channelEnv, value.slice(ENV_PREFIX.length))
      : value;
  const unbound = unboundReference(provider, stored, values, variables.channelBindings);
  if (unbound) throw badRequest(unbound);
  return stored;
}

/** The config as answers show it: literal secrets masked, `env:` references as written. */
export function maskedConfig(provider: Provider, stored: StoredConfig): StoredConfig {
  const shown: StoredConfig = {};
  for (const [key, value] of Object.entries(stored))
    shown[key] = CONFIG_FIELDS[provider][key]?.secret && !isReference(value) ? MASK : value;
  return shown;
}

/**
 * The config a send uses: references resolved from the CHANNEL_ variables, secrets decrypted,
 * every value checked again, each reference's binding to the destination too. What cannot work
 * fails the delivery permanently, naming the key.
 */
export function resolvedConfig(
  provider: Provider,
  stored: StoredConfig,
  variables: ChannelVariables,
  vault: Vault,
): Record<string, ConfigValue> {
  const resolved: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(stored)) {
    const field = CONFIG_FIELDS[provider][key];
    if (!field) continue;
    if (isReference(value)) {
      // Stored before references were limited to secret fields: refused, never resolved.
      if (!field.secret)
        throw permanent(
          `config.${key} is an env: reference, which only secret fields may be: write it again`,
        );
      const name = value.slice(ENV_PREFIX.length);
      const raw = valueOf(variables.channelEnv, name);
      if (raw === undefined || raw === '')
        throw permanent(`config.${key} names ${value}, which is not set`);
      const parsed = parse(field.kind, raw);
      const wrong = problem(field.kind, parsed, field.minLength);
      if (wrong) throw permanent(`config.${key}: the value of ${value} ${wrong}`);
      resolved[key] = parsed;
    } else if (field.secret) {
      if (!vault)
        throw permanent(
          `config.${key} is stored encrypted but SESSION_SECRET is not set: turn authentication on again or write it again as an env: reference`,
        );
      try {
        resolved[key] = vault.open(String(value));
      } catch {
        throw permanent(
          `config.${key} cannot be decrypted (SESSION_SECRET changed since it was stored): write it again`,
        );
      }
    } else resolved[key] = value;
  }
  const unbound = unboundReference(provider, stored, resolved, variables.channelBindings);
  if (unbound) throw permanent(unbound);
  return resolved;
}

/** An environment variable's text as the kind of value its key holds. */
function parse(kind: Kind, raw: string): ConfigValue {
  if (kind === 'port') return /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (kind === 'boolean') {
    const lower = raw.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : raw;
  }
  return raw;
}
