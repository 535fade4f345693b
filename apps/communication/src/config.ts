import { createHmac } from 'node:crypto';
import { ConfigError, declareVariables, Var, type Env } from '@platform/core';
import { MAX_BOUNCE_LOCAL, parseBounceAddress } from './domain/bounces/return-path.js';
import { bindingsOf } from './domain/providers/bindings.js';

/** Channel configs may name only these variables (`env:CHANNEL_...`), never the platform's own. */
export const CHANNEL_VARIABLE_PREFIX = 'CHANNEL_';

const VARIABLES = declareVariables({
  COMMUNICATION_MAX_ATTEMPTS: Var.int({
    default: 5,
    min: 1,
    max: 100,
    description:
      'Attempts of a delivery in all (the first included) before a transient failure fails it',
  }),
  COMMUNICATION_RETRY_MS: Var.int({
    default: 5000,
    min: 1,
    max: 300_000,
    unit: 'ms',
    description:
      "Pause before a delivery's second attempt; doubled before each next one, at most 5 minutes",
  }),
  COMMUNICATION_TIMEOUT_MS: Var.int({
    default: 10_000,
    min: 100,
    max: 300_000,
    unit: 'ms',
    description:
      'Time limit of one delivery attempt (an HTTP call to Slack or a webhook, an SMTP connection and each of its steps)',
  }),
  COMMUNICATION_ALLOW_PRIVATE_TARGETS: Var.bool({
    default: false,
    description:
      '`true` lets channels send to loopback, private, link-local or unspecified addresses (webhooks, Slack, SMTP on the internal network); refused otherwise, checked after DNS resolution, at each connection. Keep `false` in production',
  }),
  COMMUNICATION_SMTP_CA: Var.string({
    accepts: 'PEM certificates',
    description:
      "Certificates trusted for SMTP over TLS besides the public ones (an internal mail server's own CA); certificates are always checked",
  }),
  COMMUNICATION_SCHEDULE_MS: Var.int({
    default: 1000,
    min: 10,
    max: 60_000,
    unit: 'ms',
    description:
      'How often delayed sends that are due and digests whose window ended are handed to delivery (one durable periodic job for all instances): their precision',
  }),
  COMMUNICATION_INBOX_STREAM_MAX_MS: Var.int({
    default: 600_000,
    min: 100,
    max: 3_600_000,
    unit: 'ms',
    description:
      'How long one live inbox stream (`GET /inbox/stream`) stays open before it ends with an `end` event; EventSource then reconnects with Last-Event-ID',
  }),
  COMMUNICATION_REQUIRED_CATEGORIES: Var.list({
    default: ['security'],
    accepts: 'category names, comma-separated',
    description:
      'Categories of messages nobody can opt out of (a preference turning one off is a 400); their mails carry no unsubscribe link',
  }),
  COMMUNICATION_UNSUBSCRIBE_SECRET: Var.string({
    accepts: 'at least 32 characters',
    check: (v) => (v.length < 32 ? 'must be at least 32 characters long' : undefined),
    description:
      'Signs the one-click unsubscribe links of mails (HMAC-SHA256; the links never expire: change it to void them all). Unset: derived from SESSION_SECRET; neither set: mails carry no List-Unsubscribe header',
  }),
  COMMUNICATION_PUBLIC_URL: Var.url({
    description:
      "The platform's address as recipients reach it (https://platform.example.com): unsubscribe links start with it. Unset: mails carry no List-Unsubscribe header",
  }),
  COMMUNICATION_EVENTS_SECRET: Var.string({
    accepts: 'at least 16 characters',
    check: (v) => (v.length < 16 ? 'must be at least 16 characters long' : undefined),
    description:
      'The secret of the provider-events webhook (POST /api/v1/communication/provider-events: bounces, complaints): X-Platform-Signature is sha256=HMAC(secret, "<X-Platform-Timestamp>.<body>"). Unset: the webhook answers 409 `NOT_CONFIGURED`',
  }),
  COMMUNICATION_BOUNCE_ADDRESS: Var.string({
    accepts: `an email address (local part at most ${MAX_BOUNCE_LOCAL} characters)`,
    check: (v) =>
      /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/.test(v) && v.indexOf('@') <= MAX_BOUNCE_LOCAL
        ? undefined
        : `must be an email address of letters, digits, dots, dashes and underscores, its local part at most ${MAX_BOUNCE_LOCAL} characters`,
    description:
      "Where bounces of mails go: each mail is sent with the envelope sender (Return-Path) `<local>+<delivery>.<tag>@<domain>` (VERP), the tag signed with COMMUNICATION_EVENTS_SECRET (required with it), so that a delivery status notification names its delivery. Point the domain's MX (or a route of your mail relay) at COMMUNICATION_BOUNCE_SMTP_PORT. Unset: the envelope sender is the channel's `from`",
  }),
  COMMUNICATION_BOUNCE_SMTP_PORT: Var.int({
    min: 0,
    max: 65535,
    documentedDefault: 'unset: off',
    description:
      'The port of the SMTP server that receives delivery status notifications (RFC 3464) for COMMUNICATION_BOUNCE_ADDRESS (required with it): a failed report with a 5.x.x status is a hard bounce (the delivery `bounced`, the address suppressed), 4.x.x a soft one; `0`: a free port. Set it on one process only (the communication service in containers)',
  }),
  COMMUNICATION_BOUNCE_SMTP_HOST: Var.string({
    default: '0.0.0.0',
    accepts: 'an IP address or host name',
    description: 'The address the bounce SMTP server listens on',
  }),
  // One family, CHANNEL_X and CHANNEL_X_DESTINATION: both read by enumerating the environment.
  'CHANNEL_*': Var.string({
    description:
      "Values a channel config names as `env:CHANNEL_<NAME>` (SMTP passwords, webhook secrets, Slack URLs; secret fields only), read at start-up and resolved when sending; a channel config can name no other variable, and only one bound to the channel's own host by `CHANNEL_<NAME>_DESTINATION` (host names (any port) or http(s) origins, comma-separated: otherwise 400, and its deliveries fail; a bad entry stops start-up). In containers, set them on the communication service and the gateway",
  }),
});

export const COMMUNICATION_VARIABLES = VARIABLES.variables;

export function communicationConfig(env: Env) {
  const channelEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (name.startsWith(CHANNEL_VARIABLE_PREFIX) && value !== undefined) channelEnv[name] = value;
  const values = VARIABLES.read(env);
  return {
    maxAttempts: values.COMMUNICATION_MAX_ATTEMPTS,
    retryMs: values.COMMUNICATION_RETRY_MS,
    timeoutMs: values.COMMUNICATION_TIMEOUT_MS,
    /** Whether destinations may be loopback, private, link-local or unspecified addresses. */
    allowPrivateTargets: values.COMMUNICATION_ALLOW_PRIVATE_TARGETS,
    /** Extra CA certificates (PEM) for SMTP TLS, added to Node's public ones. */
    smtpCa: values.COMMUNICATION_SMTP_CA,
    scheduleMs: values.COMMUNICATION_SCHEDULE_MS,
    inboxStreamMaxMs: values.COMMUNICATION_INBOX_STREAM_MAX_MS,
    requiredCategories: values.COMMUNICATION_REQUIRED_CATEGORIES,
    /** The HMAC key of unsubscribe links, or undefined when links cannot be made. */
    unsubscribeKey: unsubscribeKey(values.COMMUNICATION_UNSUBSCRIBE_SECRET, env.SESSION_SECRET),
    publicUrl: values.COMMUNICATION_PUBLIC_URL?.replace(/\/+$/, ''),
    eventsSecret: values.COMMUNICATION_EVENTS_SECRET,
    /** Where bounces go and where they are received (COMMUNICATION_BOUNCE_*), when set. */
    bounces: bouncesConfig(values),
    /** The CHANNEL_* variables, the only ones an `env:` reference of a channel config resolves. */
    channelEnv: channelEnv as Readonly<Record<string, string>>,
    /** CHANNEL_X_DESTINATION, by CHANNEL_X: where each variable's secret may be sent. */
    channelBindings: bindingsOf(channelEnv),
  };
}

/** The variable, or a key derived from SESSION_SECRET (never the session secret itself). */
function unsubscribeKey(secret: string | undefined, session: string | undefined) {
  if (secret) return secret;
  if (session && session.length >= 32)
    return createHmac('sha256', session).update('communication-unsubscribe').digest('hex');
  return undefined;
}

export type CommunicationConfig = ReturnType<typeof communicationConfig>;

/** COMMUNICATION_BOUNCE_*: each needs the one before it, and the address a signing secret. */
function bouncesConfig(values: {
  COMMUNICATION_BOUNCE_ADDRESS?: string;
  COMMUNICATION_BOUNCE_SMTP_PORT?: number;
  COMMUNICATION_BOUNCE_SMTP_HOST: string;
  COMMUNICATION_EVENTS_SECRET?: string;
}) {
  const address = values.COMMUNICATION_BOUNCE_ADDRESS;
  const port = values.COMMUNICATION_BOUNCE_SMTP_PORT;
  if (address === undefined) {
    if (port !== undefined)
      throw new ConfigError('COMMUNICATION_BOUNCE_SMTP_PORT', 'needs COMMUNICATION_BOUNCE_ADDRESS');
    return undefined;
  }
  const secret = values.COMMUNICATION_EVENTS_SECRET;
  if (secret === undefined)
    throw new ConfigError(
      'COMMUNICATION_BOUNCE_ADDRESS',
      'needs COMMUNICATION_EVENTS_SECRET (it signs the return paths)',
    );
  return {
    address: parseBounceAddress(address, secret),
    listen: port === undefined ? undefined : { port, host: values.COMMUNICATION_BOUNCE_SMTP_HOST },
  };
}
