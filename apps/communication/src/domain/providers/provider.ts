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
}

export interface Attempt {
  /** The channel's config, resolved (references read, secrets decrypted): never log it. */
  config: Record<string, ConfigValue>;
  timeoutMs: number;
  /** COMMUNICATION_ALLOW_PRIVATE_TARGETS: whether internal addresses may be destinations. */
  allowPrivateTargets: boolean;
  /** COMMUNICATION_SMTP_CA: extra CA certificates (PEM) trusted for SMTP TLS. */
  smtpCa?: string;
  /** Aborted when the service stops waiting for the attempt (shutdown, lost lease). */
  signal: AbortSignal;
  log: { info(obj: object, msg: string): void };
}

/** Sends one message; resolves with the provider's message id, throws a DeliveryError. */
export type Send = (message: Message, attempt: Attempt) => Promise<string>;
