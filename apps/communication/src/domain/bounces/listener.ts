import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';
import type { CommunicationDb } from '../../database.js';
import { deliveryByReference } from '../../repositories/suppressions.js';
import { readDeliveryStatus, type RecipientReport } from './dsn.js';
import { recordReport } from './record.js';
import { deliveryOfReturnPath, type BounceAddress } from './return-path.js';

/** A DSN carries the headers or the whole of the message it reports on: larger ones are refused. */
export const MAX_DSN_BYTES = 10 * 1024 * 1024;

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

const addressesOf = (target: string) =>
  target
    .split(',')
    .map((a) =>
      a
        .trim()
        .replace(/^.*<([^>]*)>$/, '$1')
        .toLowerCase(),
    )
    .filter(Boolean);

/**
 * The address a failed report is about, among those the delivery went to: its Original-Recipient
 * or Final-Recipient when the delivery named it, else the delivery's only address (the report
 * names where it was forwarded); null when neither says which.
 */
function reportedAddress(target: string, report: RecipientReport): string | null {
  const sent = addressesOf(target);
  for (const named of [report.originalRecipient, report.finalRecipient])
    if (named && sent.includes(named.toLowerCase())) return named.toLowerCase();
  return sent.length === 1 ? sent[0] : null;
}

/** Reads one DSN and records what it says of each delivery its recipients name. */
async function receive(
  db: CommunicationDb,
  log: Log,
  deliveries: string[],
  stream: SMTPServerDataStream,
) {
  const reports = await readDeliveryStatus(stream);
  if (stream.sizeExceeded) throw smtpError(552, `Larger than ${MAX_DSN_BYTES} bytes`);
  if (!reports) {
    log.info({ deliveries }, 'A mail to the bounce address without a delivery status: ignored');
    return;
  }
  for (const id of deliveries) {
    const delivery = await deliveryByReference(db, { deliveryId: id });
    if (!delivery) continue;
    for (const report of reports) {
      // delayed, delivered, relayed, expanded: the message is still on its way, or arrived.
      if (report.action !== 'failed') continue;
      const address = reportedAddress(delivery.target, report);
      if (!address) continue;
      const hard = report.status?.startsWith('5') ?? false;
      const detail = [report.status, report.diagnostic].filter(Boolean).join(' ');
      await recordReport(db, id, { type: 'bounce', address, hard, detail });
      log.info({ deliveryId: id, status: report.status, hard }, 'Bounce recorded from a DSN');
    }
  }
}

/**
 * The SMTP server receiving delivery status notifications (RFC 3464) at the bounce address
 * (COMMUNICATION_BOUNCE_SMTP_PORT): only recipients that are signed return paths of deliveries
 * are accepted (550 otherwise); no AUTH, no STARTTLS (a relay of the organisation's mail system
 * hands bounces over on the internal network). A failure to record answers 451: the sending
 * system tries again later.
 */
export async function startBounceListener(options: {
  db: CommunicationDb;
  log: Log;
  address: BounceAddress;
  host: string;
  port: number;
}) {
  const { db, log, address } = options;
  const server = new SMTPServer({
    name: address.domain,
    banner: 'platform communication: delivery status notifications only',
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    size: MAX_DSN_BYTES,
    logger: false,
    onRcptTo(rcpt, _session, callback) {
      if (deliveryOfReturnPath(address, rcpt.address)) return callback();
      callback(smtpError(550, `No such recipient: ${rcpt.address}`));
    },
    onData(stream, session, callback) {
      const deliveries = session.envelope.rcptTo
        .map((r) => deliveryOfReturnPath(address, r.address))
        .filter((id): id is string => id !== null);
      receive(db, log, deliveries, stream).then(
        () => callback(),
        (error: Error & { responseCode?: number }) => {
          stream.resume(); // whatever is left of it is read and dropped
          if (error.responseCode) return callback(error);
          log.warn({ err: error }, 'A DSN could not be recorded: the sender will try again');
          callback(smtpError(451, 'Could not record the report now: try again later'));
        },
      );
    },
  });
  server.on('error', (error) => log.warn({ err: error }, 'Bounce SMTP server error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  log.info({ port, host: options.host }, 'Receiving delivery status notifications over SMTP');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
