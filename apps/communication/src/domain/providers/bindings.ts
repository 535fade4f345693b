import { isIP } from 'node:net';
import { ConfigError } from '@platform/core';
import type { Provider, StoredConfig } from '../../database.js';

// A CHANNEL_ variable is bound to its destination (issue 31): CHANNEL_X_DESTINATION lists the
// hosts (any port) or http(s) origins the secret of CHANNEL_X may be sent to, so that a channel
// made for another host cannot name it (an smtp channel on a host of one's own naming another
// channel's password). Checked when a channel is written and again before each send.

/** CHANNEL_X's destinations are listed in CHANNEL_X_DESTINATION. */
export const BINDING_SUFFIX = '_DESTINATION';

/** Where the secret of one variable may go: host names (any port), or origins (scheme, host, port). */
export interface Binding {
  hosts: readonly string[];
  origins: readonly string[];
}

/** Where a channel sends its secrets: its host, and for a URL its origin. */
export interface Destination {
  host: string;
  origin: string | null;
}

/** A host as compared: lower case, no brackets around an IPv6 address, no trailing dot. */
const normalHost = (host: string) =>
  host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');

const HOST_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/** Parses one CHANNEL_X_DESTINATION value; a bad entry stops start-up naming the variable. */
export function parseBinding(variable: string, raw: string): Binding {
  const hosts: string[] = [];
  const origins: string[] = [];
  const wrong = (entry: string) =>
    new ConfigError(
      variable,
      `must list host names or http(s) origins (https://host[:port], no path), separated by commas; got "${entry}"`,
    );
  for (const entry of raw.split(/[\s,]+/).filter(Boolean)) {
    if (entry.includes('://')) {
      let url: URL;
      try {
        url = new URL(entry);
      } catch {
        throw wrong(entry);
      }
      const plain = !url.username && !url.password && !url.search && !url.hash;
      if (!['http:', 'https:'].includes(url.protocol) || !plain || url.pathname !== '/')
        throw wrong(entry);
      origins.push(url.origin);
    } else {
      const host = normalHost(entry);
      if (!HOST_NAME.test(host) && !isIP(host)) throw wrong(entry);
      hosts.push(host);
    }
  }
  if (hosts.length + origins.length === 0) throw wrong(raw);
  return { hosts, origins };
}

/** Every binding of `env` (the CHANNEL_ variables), by the name of the variable it binds. */
export function bindingsOf(env: Readonly<Record<string, string>>): Record<string, Binding> {
  const bindings: Record<string, Binding> = {};
  for (const [name, value] of Object.entries(env))
    if (name.endsWith(BINDING_SUFFIX) && value.trim() !== '')
      bindings[name.slice(0, -BINDING_SUFFIX.length)] = parseBinding(name, value);
  return bindings;
}

/**
 * Where a channel of `provider` sends its secrets, from its config's values (references already
 * replaced by their values): the smtp host, the webhook URL, the Slack URL (its own secret).
 * Undefined when it is not known (a Slack URL variable not set).
 */
export function destinationOf(
  provider: Provider,
  values: Record<string, unknown>,
): Destination | undefined {
  if (provider === 'smtp')
    return typeof values.host === 'string'
      ? { host: normalHost(values.host), origin: null }
      : undefined;
  const raw = provider === 'webhook' ? values.url : provider === 'slack' ? values.webhookUrl : null;
  if (typeof raw !== 'string') return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return { host: normalHost(url.hostname), origin: url.origin };
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with config.<key> naming `variable` for a channel sending to `destination`
 * (undefined: only the binding's presence is checked), or undefined when it may. Messages name
 * the variable and hosts, never a URL (a Slack URL is a credential) nor a value.
 */
export function bindingProblem(
  key: string,
  variable: string,
  destination: Destination | undefined,
  bindings: Readonly<Record<string, Binding>>,
): string | undefined {
  const reference = `config.${key} names env:${variable}`;
  if (variable.endsWith(BINDING_SUFFIX))
    return `${reference}, which lists destinations: it is not a secret`;
  const binding = Object.hasOwn(bindings, variable) ? bindings[variable] : undefined;
  const here = destination ? ` (${destination.host} for this channel)` : '';
  if (!binding)
    return `${reference}, which is bound to no destination: set ${variable}${BINDING_SUFFIX} to the hosts it may be sent to${here}`;
  if (!destination) return undefined;
  const { hosts, origins } = binding;
  if (hosts.includes(destination.host)) return undefined;
  if (destination.origin !== null && origins.includes(destination.origin)) return undefined;
  return `${reference}, which may be sent only to ${[...hosts, ...origins].join(', ')} (${variable}${BINDING_SUFFIX}), not to ${destination.host}`;
}

/**
 * The first `env:` reference of a channel's stored config whose variable is not bound to the
 * channel's destination (found from `values`: the config with its references read), in words;
 * undefined when every one is.
 */
export function unboundReference(
  provider: Provider,
  stored: StoredConfig,
  values: Record<string, unknown>,
  bindings: Readonly<Record<string, Binding>>,
): string | undefined {
  const destination = destinationOf(provider, values);
  for (const [key, value] of Object.entries(stored))
    if (typeof value === 'string' && value.startsWith('env:')) {
      const problem = bindingProblem(key, value.slice('env:'.length), destination, bindings);
      if (problem) return problem;
    }
  return undefined;
}
