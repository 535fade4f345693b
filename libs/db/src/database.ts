import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { growMemoryFilesInPlace } from './copy.js';
import { isDatabaseUnavailable } from './errors.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PGliteWorker } from './pglite-remote.js';
import { listenPGlite, listenPostgres, type NotificationHandler, type Unlisten } from './listen.js';
import { withTimeout } from './timeout.js';

export interface DatabaseOptions {
  /** A PostgreSQL connection string; when set, a `pg` pool is used. */
  url?: string;
  /** Where the embedded database lives when no url is given; `memory://` keeps it in memory. */
  dataDir?: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /**
   * How long to wait for a PostgreSQL server that is not there yet (starting, restarting) before
   * giving up; 0 fails at once. Other failures (a wrong password, no such database) fail at once.
   */
  waitMs?: number;
}

export interface PlatformDatabase {
  readonly kind: 'postgres' | 'pglite';
  /** Kysely over the whole database; services use `schema()` instead. */
  readonly kysely: Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Kysely whose unqualified tables live in the given Postgres schema. */
  schema<DB>(name: string): Kysely<DB>;
  /** Resolves when the database answers `select 1` within the timeout, rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Calls `onMessage` with the payload of every `pg_notify(channel, payload)` committed by any
   * process on the database, and with `undefined` when some may have been missed (the connection
   * was lost and is back). Resolves once listening; the function it gives stops.
   */
  listen(channel: string, onMessage: NotificationHandler): Promise<Unlisten>;
  /** The pool's connections now (PostgreSQL; PGlite has one session and no pool). */
  poolStats?(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open (in use or idle). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The pool's size. */
  max: number;
}

const INT8_OID = 20;
// Counts and cents come back as int8; JavaScript numbers hold them exactly up to 2^53.
const parseInt8 = (value: string) => Number(value);

export const MEMORY = 'memory://';

export async function openDatabase(options: DatabaseOptions = {}): Promise<PlatformDatabase> {
  if (options.url) {
    const db = await openPostgres(options.url, options.poolSize ?? 10);
    if (options.waitMs)
      await waitUntilUp(db, options.waitMs).catch(async (error: unknown) => {
        await db.close();
        throw error;
      });
    return db;
  }
  return openPGlite(options.dataDir ?? '.data');
}

async function openPostgres(url: string, poolSize: number): Promise<PlatformDatabase> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // Waiting for a connection (a free one from the pool, or a new one) is bounded, so that a
    // database that does not answer turns into a 503 instead of a hung request.
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A connection losing its server must not take the process down: `pg` emits `error` on the
  // client, and the pool listens only while the client is idle. The query under way fails with
  // the error instead (a 503), and the pool drops the broken client when it comes back.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const stats = () => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: poolSize,
  });
  return wrap(
    'postgres',
    new Kysely({ dialect: new PostgresDialect({ pool }) }),
    (channel, on) => listenPostgres(url, channel, on),
    stats,
  );
}

/** Resolves once the database answers; while it is unreachable, asks again every 250 ms. */
async function waitUntilUp(db: PlatformDatabase, waitMs: number) {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await db.ping(5_000);
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() >= deadline) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(
          isDatabaseUnavailable(error)
            ? `The database did not answer within ${waitMs} ms: ${reason}`
            : `The database refused the connection: ${reason}`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * The embedded database of `openDatabase`: PGlite in a worker thread of its own, so that its WASM
 * engine and the HTTP server do not take turns on one event loop.
 */
async function openPGlite(dataDir: string): Promise<PlatformDatabase> {
  let location = MEMORY;
  if (dataDir !== MEMORY) {
    location = resolve(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
  }
  const remote = new PGliteWorker(location);
  try {
    await remote.waitReady;
  } catch (error) {
    await remote.worker.terminate();
    throw error;
  }
  return fromPGliteWorker(remote);
}

/**
 * Wraps a PGlite instance that lives in a worker thread (openDatabase's embedded default). With
 * `owned: false`, closing the wrapper leaves the worker running for another wrapper.
 */
export function fromPGliteWorker(
  remote: PGliteWorker,
  options: { owned?: boolean } = {},
): PlatformDatabase {
  const dialect = new PGliteDialect(remote, { ...options, pipeline: true });
  return wrap('pglite', new Kysely({ dialect }), (channel, on) =>
    listenHolding(dialect, () => listenPGlite(remote, channel, on)),
  );
}

/**
 * Wraps a PGlite instance. With `owned: false`, closing the wrapper leaves the instance open for
 * another wrapper (the tests reuse instances instead of starting new ones).
 */
export function fromPGlite(pglite: PGlite, options: { owned?: boolean } = {}): PlatformDatabase {
  pglite.parsers[INT8_OID] = parseInt8;
  growMemoryFilesInPlace(pglite);
  const dialect = new PGliteDialect(pglite, options);
  return wrap('pglite', new Kysely({ dialect }), (channel, on) =>
    listenHolding(dialect, () => listenPGlite(pglite, channel, on)),
  );
}

/**
 * LISTEN and UNLISTEN, which PGlite sends itself, hold the session as a transaction does, so that
 * they never land inside another holder's transaction (whose rollback would undo them).
 */
async function listenHolding(dialect: PGliteDialect, listen: () => Promise<Unlisten>) {
  const unlisten = await dialect.exclusive(listen);
  return () => dialect.exclusive(unlisten);
}

function wrap(
  kind: PlatformDatabase['kind'],
  kysely: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  listen: PlatformDatabase['listen'],
  poolStats?: () => PoolStats,
): PlatformDatabase {
  let closed = false;
  // Listeners end with the database: whoever listens need not stop it on its own.
  const listeners = new Set<Unlisten>();
  return {
    kind,
    kysely,
    async listen(channel, onMessage) {
      const unlisten = await listen(channel, onMessage);
      const stop = async () => {
        listeners.delete(stop);
        await unlisten();
      };
      listeners.add(stop);
      return stop;
    },
    schema: <DB>(name: string) => kysely.withSchema(name) as unknown as Kysely<DB>,
    ...(poolStats ? { poolStats } : {}),
    async ping(timeoutMs = 2_000) {
      await withTimeout(sql`select 1`.execute(kysely), timeoutMs, 'database');
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...listeners].map((stop) => stop()));
      await kysely.destroy();
    },
  };
}
