import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { createTransport } from 'nodemailer';
import { checkedAddresses } from './destination.js';
import { DeliveryError, permanent, transient } from './errors.js';
import type { Send } from './provider.js';

/** Failures that ended the connection rather than refused the message: worth another attempt. */
const CONNECTION_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS']);

/**
 * Through nodemailer, one connection per attempt: STARTTLS when the server offers it (`secure`
 * for implicit TLS, port 465 by default then, 587 otherwise), AUTH PLAIN/LOGIN when `user` is set.
 * With a login, STARTTLS is required (`requireTLS`): a password never crosses a plain connection.
 * Certificates are verified (public CAs, plus COMMUNICATION_SMTP_CA). The host is resolved first
 * and every address checked (no internal address unless COMMUNICATION_ALLOW_PRIVATE_TARGETS);
 * the connection goes to the address checked, the certificate is checked against the host name.
 * The message id is the Message-ID of the message sent. With COMMUNICATION_BOUNCE_ADDRESS the
 * envelope sender is the delivery's signed return path.
 */
export const sendSmtp: Send = async (
  message,
  { config, timeoutMs, signal, allowPrivateTargets, smtpCa, returnPath },
) => {
  const secure = config.secure === true;
  const host = String(config.host);
  const [address] = await checkedAddresses(host, allowPrivateTargets, 'SMTP');
  const login = config.user !== undefined || config.pass !== undefined;
  const transport = createTransport({
    host: address.address,
    ...(isIP(host.replace(/^\[(.*)\]$/, '$1')) ? {} : { servername: host }),
    port: typeof config.port === 'number' ? config.port : secure ? 465 : 587,
    secure,
    requireTLS: login && !secure,
    tls: smtpCa ? { ca: [...rootCertificates, smtpCa] } : {},
    auth: config.user ? { user: String(config.user), pass: String(config.pass ?? '') } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  const timeout = AbortSignal.timeout(timeoutMs * 3);
  try {
    const info = await transport.sendMail({
      from: String(config.from),
      to: message.target,
      // Bounces come back to an address naming the delivery (see bounces/return-path.ts).
      ...(returnPath ? { envelope: { from: returnPath, to: message.target } } : {}),
      subject: message.subject ?? '',
      text: message.text,
      ...(message.html === null ? {} : { html: message.html }),
      headers: {
        'X-Platform-Delivery': message.deliveryId,
        // RFC 8058: a POST to the List-Unsubscribe URL unsubscribes at once.
        ...(message.unsubscribeUrl
          ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
          : {}),
      },
      ...(message.unsubscribeUrl ? { list: { unsubscribe: message.unsubscribeUrl } } : {}),
      signal: AbortSignal.any([signal, timeout]),
    });
    return info.messageId;
  } catch (error) {
    if (signal.aborted) throw error;
    throw smtpError(host, error, timeout.aborted, timeoutMs);
  } finally {
    transport.close();
  }
};

/** SMTP 4xx and lost connections are transient; 5xx and everything else permanent. */
function smtpError(host: string, error: unknown, timedOut: boolean, timeoutMs: number) {
  if (error instanceof DeliveryError) return error;
  const { code, responseCode, response, message } = error as {
    code?: string;
    responseCode?: number;
    response?: string;
    message?: string;
  };
  if (timedOut) return transient(`SMTP ${host} did not finish within ${timeoutMs * 3} ms`);
  if (typeof responseCode === 'number') {
    const words = `SMTP ${host} answered ${(response ?? String(responseCode)).slice(0, 300)}`;
    return responseCode >= 400 && responseCode < 500 ? transient(words) : permanent(words);
  }
  const words = `SMTP ${host}: ${message ?? 'failed'}${code ? ` (${code})` : ''}`;
  return code && CONNECTION_CODES.has(code) ? transient(words) : permanent(words);
}
