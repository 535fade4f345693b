import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Receives each notification's payload; `undefined` after a reconnect: some may have been missed. */
export type NotificationHandler = (payload: string | undefined) => void;

/** Stops listening. */
export type Unlisten = () => Promise<void>;

const RETRY_MS = 500;

/**
 * LISTEN on PostgreSQL, on a connection of its own (a pooled one would be handed to other
 * queries). When that connection is lost (the server restarted, the backend was terminated) it is
 * opened again every RETRY_MS until it succeeds, and the handler is told that notifications may
 * have been missed meanwhile.
 */
export async function listenPostgres(
  url: string,
  channel: string,
  onMessage: NotificationHandler,
): Promise<Unlisten> {
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const open = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    next.on('error', () => undefined);
    next.on('notification', (message) => {
      if (message.channel === channel) onMessage(message.payload ?? '');
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    next.once('end', lost);
    client = next;
    if (stopped) await next.end();
  };
  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      open().then(() => onMessage(undefined), retry);
    }, RETRY_MS);
    timer.unref();
  };
  function lost() {
    client = undefined;
    retry();
  }

  await open();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    const current = client;
    client = undefined;
    current?.removeListener('end', lost);
    await current?.end();
  };
}

/** LISTEN on the embedded database: one process, one session, nothing to reconnect. */
export async function listenPGlite(
  pglite: Pick<PGlite, 'listen' | 'closed'>,
  channel: string,
  onMessage: NotificationHandler,
): Promise<Unlisten> {
  const handler = (payload: string) => onMessage(payload);
  const unlisten = await pglite.listen(channel, handler);
  return async () => {
    if (!pglite.closed) await unlisten();
  };
}
