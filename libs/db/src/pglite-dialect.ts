import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * What the dialect needs of PGlite: a PGlite instance in this thread, or a PGliteWorker (the same
 * instance in a worker thread, see pglite-remote.ts).
 */
export interface PGliteSession {
  /** `blob`: the file a COPY ... FROM '/dev/blob' reads (copy.ts). */
  query<R>(
    sql: string,
    params: unknown[],
    options?: { blob?: Blob },
  ): Promise<{ rows: R[]; affectedRows?: number }>;
  readonly waitReady: Promise<void>;
  readonly closed: boolean;
  close(): Promise<void>;
}

/**
 * Kysely dialect for the embedded PGlite database.
 *
 * PGlite is one Postgres backend with one session, so every Kysely "connection" is the same
 * session. A transaction holds it from BEGIN until its connection is released (after COMMIT or
 * ROLLBACK): no query of a concurrent request lands inside it; they wait, in arrival order.
 *
 * In this thread, the driver hands the session to one holder at a time, in arrival order. With
 * `pipeline` (PGlite in a worker thread, which answers messages in the order sent), holders outside
 * a transaction do not wait for each other: their queries are sent at once and queue in the worker,
 * which thus never idles while this thread works. Only a transaction (and `exclusive`) waits for
 * the one before to end, and stops everyone else's queries until it ends.
 * (The published kysely-pglite-dialect does the same but pins PGlite below 0.5.)
 */
export class PGliteDialect implements Dialect {
  #driver: PGliteDriver | undefined;

  /**
   * `owned: false` leaves the instance open when Kysely is destroyed (the tests reuse instances).
   * `pipeline: true` requires a session that keeps the order of queries sent without waiting.
   */
  constructor(
    private readonly pglite: PGliteSession,
    private readonly options: { owned?: boolean; pipeline?: boolean } = {},
  ) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    this.#driver = new PGliteDriver(
      this.pglite,
      this.options.owned ?? true,
      this.options.pipeline ?? false,
    );
    return this.#driver;
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }

  /** Runs `work` while holding the session as a transaction does (for what PGlite sends itself). */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#driver) throw new Error('PGliteDialect: no Kysely instance uses this dialect yet');
    return this.#driver.exclusive(work);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly pglite: PGliteSession,
    private readonly driver: PGliteDriver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.driver.gate(this, false, () =>
      this.pglite.query<R>(query.sql, [...query.parameters]),
    );
    return result.affectedRows === undefined
      ? { rows: result.rows }
      : { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) };
  }

  /** COPY ... FROM '/dev/blob' reading `blob` (copy.ts), sent as any query of this holder is. */
  copyFromBlob(sql: string, blob: Blob) {
    return this.driver.gate(this, false, () => this.pglite.query(sql, [], { blob }));
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }
}

interface Waiter {
  holder: object;
  own: boolean;
  run(): void;
}

class PGliteDriver implements Driver {
  /** Without pipeline: the one connection, whether it is held, and who waits for it. */
  private readonly connection: PGliteConnection;
  private held = false;
  private readonly waiting: Array<() => void> = [];
  /** The holder inside a transaction, and the queries and transactions waiting for its end. */
  private owner: object | undefined;
  private readonly queue: Waiter[] = [];

  constructor(
    private readonly pglite: PGliteSession,
    private readonly owned: boolean,
    private readonly pipeline: boolean,
  ) {
    this.connection = new PGliteConnection(pglite, this);
  }

  async init(): Promise<void> {
    await this.pglite.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.pipeline) return new PGliteConnection(this.pglite, this);
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.held = true;
    return this.connection;
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    if (this.owner === conn) this.endTransaction();
    if (this.pipeline) return;
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }

  /**
   * Calls `send` (which must send its statement before it returns its promise) at once when no
   * other holder is inside a transaction, else when that transaction ends, in arrival order. With
   * `own`, `holder` is inside a transaction from then until its connection is released.
   */
  gate<T>(holder: object, own: boolean, send: () => Promise<T>): Promise<T> {
    if (this.owner === undefined || this.owner === holder) {
      if (own) this.owner = holder;
      return send();
    }
    return new Promise<T>((resolve, reject) =>
      this.queue.push({ holder, own, run: () => void send().then(resolve, reject) }),
    );
  }

  private endTransaction() {
    this.owner = undefined;
    // Everything queued before the next transaction goes now, then that transaction's BEGIN.
    while (this.owner === undefined && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (next.own) this.owner = next.holder;
      next.run();
    }
  }

  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const conn = await this.acquireConnection();
    try {
      return await this.gate(conn, true, work);
    } finally {
      await this.releaseConnection(conn);
    }
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await this.gate(conn, true, () => this.pglite.query(`begin${isolation}`, []));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    if (this.owned && !this.pglite.closed) await this.pglite.close();
  }
}
