import { envBool, envInt, type Env, type Variable } from '@platform/core';
import { bindingsOf } from './providers/bindings.js';

/** Channel configs may name only these variables (`env:CHANNEL_...`), never the platform's own. */
export const CHANNEL_VARIABLE_PREFIX = 'CHANNEL_';

export const COMMUNICATION_VARIABLES: readonly Variable[] = [
  {
    name: 'COMMUNICATION_MAX_ATTEMPTS',
    default: '5',
    description:
      'Attempts of a delivery in all (the first included) before a transient failure fails it',
  },
  {
    name: 'COMMUNICATION_RETRY_MS',
    default: '5000',
    description:
      'Pause before the second attempt of a delivery, in ms; doubled before each next one, at most 5 minutes',
  },
  {
    name: 'COMMUNICATION_TIMEOUT_MS',
    default: '10000',
    description:
      'Time limit of one attempt (an HTTP call to Slack or a webhook, an SMTP connection and each of its steps), in ms',
  },
  {
    name: 'COMMUNICATION_ALLOW_PRIVATE_TARGETS',
    default: 'false',
    description:
      'true lets webhook, Slack and SMTP destinations resolve to loopback, private, link-local or unspecified addresses (checked after DNS resolution, at each connection); keep false in production',
  },
  {
    name: 'COMMUNICATION_SMTP_CA',
    default: 'unset',
    description:
      'PEM certificates trusted for SMTP TLS in addition to the usual public ones (a relay with a private CA)',
  },
  {
    // One family, CHANNEL_X and CHANNEL_X_DESTINATION: both read by enumerating the environment.
    name: 'CHANNEL_*',
    default: 'unset',
    description:
      'Values a channel config names as env:CHANNEL_<NAME> (SMTP passwords, webhook secrets, Slack webhook URLs; secret fields only), read at start-up and resolved when sending; no other variable can be named. Each is bound to its destination by CHANNEL_<NAME>_DESTINATION: host names (any port) or http(s) origins, comma-separated (CHANNEL_SMTP_PASS_DESTINATION=smtp.example.com); a channel naming a variable without one, or on another host, is refused (400) and its deliveries fail; a bad entry stops start-up',
  },
];

export function communicationConfig(env: Env) {
  const channelEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith(CHANNEL_VARIABLE_PREFIX) && value !== undefined) channelEnv[name] = value;
  return {
    maxAttempts: envInt(env, 'COMMUNICATION_MAX_ATTEMPTS', 5, { min: 1, max: 100 }),
    retryMs: envInt(env, 'COMMUNICATION_RETRY_MS', 5000, { min: 1, max: 300_000 }),
    timeoutMs: envInt(env, 'COMMUNICATION_TIMEOUT_MS', 10_000, { min: 100, max: 300_000 }),
    /** Whether destinations may be loopback, private, link-local or unspecified addresses. */
    allowPrivateTargets: envBool(env, 'COMMUNICATION_ALLOW_PRIVATE_TARGETS', false),
    /** Extra CA certificates (PEM) for SMTP TLS, added to Node's public ones. */
    smtpCa: env.COMMUNICATION_SMTP_CA?.trim() || undefined,
    /** The CHANNEL_* variables, the only ones an `env:` reference of a channel config resolves. */
    channelEnv: channelEnv as Readonly<Record<string, string>>,
    /** CHANNEL_X_DESTINATION, by CHANNEL_X: where each variable's secret may be sent. */
    channelBindings: bindingsOf(channelEnv),
  };
}

export type CommunicationConfig = ReturnType<typeof communicationConfig>;
