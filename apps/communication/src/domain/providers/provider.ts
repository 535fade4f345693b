import type { SlackForm } from '../../database.js';
import type { ConfigValue } from './channel-config.js';

/** One message as a provider carries it. */
export interface Message {
  deliveryId: string;
  appId: string;
  channelId: string;
  target: string;
  subject: string | null;
  text: string;
  html: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  /** The x-request-id of the send, passed on to HTTP providers. */
  requestId: string | null;
  /** The template's Slack form, rendered (text and blocks). */
  slack?: SlackForm | null;
  /** A mail's one-click unsubscribe link (List-Unsubscribe, RFC 8058), when it has one. */
  unsubscribeUrl?: string;
}

export interface Attempt {
  /** The channel's config, resolved (references read, secrets decrypted): never log it. */
  config: Record<string, ConfigValue>;
  timeoutMs: number;
  /** COMMUNICATION_ALLOW_PRIVATE_TARGETS: whether internal addresses may be destinations. */
  allowPrivateTargets: boolean;
  /** COMMUNICATION_SMTP_CA: extra CA certificates (PEM) trusted for SMTP TLS. */
  smtpCa?: string;
  /** The SMTP envelope sender naming the delivery (COMMUNICATION_BOUNCE_ADDRESS), when set. */
  returnPath?: string;
  /** Aborted when the service stops waiting for the attempt (shutdown, lost lease). */
  signal: AbortSignal;
  log: { info(obj: object, msg: string): void };
}

/** Sends one message; resolves with the provider's message id, throws a DeliveryError. */
export type Send = (message: Message, attempt: Attempt) => Promise<string>;
