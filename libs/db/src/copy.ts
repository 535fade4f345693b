import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompiledQuery, DatabaseConnection, Kysely } from 'kysely';

// COPY ... FROM on either engine: rows written at the speed of the database, not one INSERT
// parameter at a time. PostgreSQL takes COPY FROM STDIN (pg-copy-streams); PGlite has no STDIN but
// reads a COPY from its virtual file /dev/blob, given with the statement (its `blob` option).

// pg-copy-streams ships no types: what is used of it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const copyStreams = require('pg-copy-streams') as {
  from(text: string): Writable & { rowCount: number };
};

/** A value of COPY's text format (null: `\N`): backslashes, tabs and line breaks escaped. */
export function copyValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value;
}

/** One row of COPY's text format, its line break included. */
export function copyRow(values: ReadonlyArray<string | number | boolean | null | undefined>) {
  let line = copyValue(values[0]);
  for (let i = 1; i < values.length; i++) line += `\t${copyValue(values[i])}`;
  return `${line}\n`;
}

export interface CopyTarget {
  /** The table, as SQL (quoted and schema-qualified as need be: `"billing"."focus_rows"`). */
  table: string;
  /** Its columns, in the order of each row's values (plain names; they are quoted here). */
  columns: readonly string[];
  /** `text` (default: tab-separated, `\N` for null, see copyRow) or `csv`. */
  format?: 'text' | 'csv';
  /** csv: the first line is a header, not a row. */
  header?: boolean;
}

export interface CopyOptions {
  /** PGlite: the most bytes one COPY statement reads (whole rows; default 8 MiB). */
  chunkBytes?: number;
}

type Piece = string | Uint8Array;
type Pieces = Piece | Iterable<Piece> | AsyncIterable<Piece>;

/** What PGliteDialect's connection offers (pglite-dialect.ts): a COPY reading its blob. */
interface BlobCopier {
  copyFromBlob(sql: string, blob: Blob): Promise<{ affectedRows?: number }>;
}

const isBlobCopier = (conn: DatabaseConnection): conn is DatabaseConnection & BlobCopier =>
  typeof (conn as Partial<BlobCopier>).copyFromBlob === 'function';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies rows into a table with COPY: `data` is the rows in COPY's text format (or CSV), as one
 * piece or many (strings or bytes, split anywhere), read as they come. Resolves with the rows
 * copied. On `db`'s connection: inside its transaction when `db` is one, else a connection held
 * for this COPY. PostgreSQL: COPY FROM STDIN, the pieces streamed with backpressure; PGlite: COPY
 * FROM '/dev/blob', a statement for each `chunkBytes` of whole rows. A failing COPY copies nothing
 * (of that statement, on PGlite: run it in a transaction for all or nothing).
 */
export function copyInto(
  db: Kysely<any>, // eslint-disable-line @typescript-eslint/no-explicit-any
  target: CopyTarget,
  data: Pieces,
  options: CopyOptions = {},
): Promise<number> {
  const columns = target.columns.map(quote).join(', ');
  const settings =
    target.format === 'csv' ? ` (format csv${target.header ? ', header true' : ''})` : '';
  const pieces = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
  return db.getExecutor().provideConnection(async (conn) => {
    if (isBlobCopier(conn)) {
      const sql = (first: boolean) =>
        `copy ${target.table} (${columns}) from '/dev/blob'${first ? settings : settings.replace(', header true', '')}`;
      let rows = 0;
      let first = true;
      for await (const chunk of wholeRows(
        pieces,
        options.chunkBytes ?? 8 * 2 ** 20,
        target.format,
      )) {
        rows += (await conn.copyFromBlob(sql(first), chunk)).affectedRows ?? 0;
        first = false;
      }
      return rows;
    }
    // PostgreSQL: Kysely's connection hands its query to pg's client.query, which takes a
    // submittable (pg-copy-streams' stream) as well as SQL text; the stream is then fed here.
    const stream = copyStreams.from(`copy ${target.table} (${columns}) from stdin${settings}`);
    const query = { sql: stream, parameters: [], query: undefined, queryId: undefined };
    await conn.executeQuery(query as unknown as CompiledQuery);
    await pipeline(Readable.from(pieces as Iterable<Piece>), stream);
    return stream.rowCount;
  });
}

/**
 * The pieces regrouped into blobs of about `size` bytes that end at a row's end: in text format
 * every line break ends a row (those in values are escaped); in CSV, one outside quotes does.
 */
async function* wholeRows(
  pieces: Iterable<Piece> | AsyncIterable<Piece>,
  size: number,
  format?: string,
) {
  // Pieces are held as they come (a Blob takes strings as they are) until there are `size`
  // bytes; only then are they joined as bytes, to cut them at a row's end.
  let held: Piece[] = [];
  let bytes = 0;
  for await (const piece of pieces) {
    held.push(piece);
    bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    if (bytes < size) continue;
    const joined = concat(
      held.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
      bytes,
    );
    const cut = lastRowEnd(joined, format === 'csv') + 1;
    if (cut > 0) yield new Blob([joined.subarray(0, cut)] as BlobParts);
    held = cut < joined.length ? [joined.slice(cut)] : [];
    bytes = joined.length - cut;
  }
  if (bytes > 0) yield new Blob(held as BlobParts);
}

/** What a Blob is made of (Node's and the DOM's typings of typed arrays differ). */
type BlobParts = ConstructorParameters<typeof Blob>[0];

function concat(parts: Uint8Array[], bytes: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(bytes);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The index of the last line break that ends a row (-1: none). */
function lastRowEnd(data: Uint8Array, csv: boolean): number {
  if (!csv) return data.lastIndexOf(10);
  // A line break ends a CSV row when the quotes before it are even in number (a doubled quote
  // inside a value adds two).
  let quotes = 0;
  let last = -1;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 34) quotes += 1;
    else if (data[i] === 10 && quotes % 2 === 0) last = i;
  }
  return last;
}

interface MemoryFile {
  contents: Uint8Array | null;
  usedBytes: number;
}
interface Memfs {
  resizeFileStorage(node: MemoryFile, size: number): void;
  expandFileStorage(node: MemoryFile, capacity: number): void;
}
const patched = new WeakSet<object>();

/**
 * Makes PGlite's in-memory files (`memory://`: Emscripten's MEMFS) grow in place: MEMFS sets a
 * file to a larger size by copying it whole into a new array of that exact size, and PostgreSQL
 * extends a table by many pages at once (posix_fallocate) when COPY fills it, so each extension
 * copied the whole table (COPY ran at half its speed at 10 MB, slower as the table grew). Here
 * the file's array grows as MEMFS's own writes grow it (doubling, then by an eighth), zeros
 * beyond the old end. Files on disk (a data directory) are not MEMFS: untouched.
 */
export function growMemoryFilesInPlace(pglite: { waitReady: Promise<void> }) {
  const memfs = (pglite as { Module?: { MEMFS?: Memfs } }).Module?.MEMFS;
  if (!memfs) {
    // Not started yet: once it is (its start's failure is reported where it is awaited).
    void pglite.waitReady.then(
      () => growMemoryFilesInPlace(pglite),
      () => undefined,
    );
    return;
  }
  if (patched.has(memfs)) return;
  patched.add(memfs);
  const resize = memfs.resizeFileStorage.bind(memfs);
  memfs.resizeFileStorage = (node, size) => {
    if (!node.contents || size <= node.usedBytes) return resize(node, size);
    memfs.expandFileStorage(node, size);
    node.contents!.fill(0, node.usedBytes, size);
    node.usedBytes = size;
  };
}
