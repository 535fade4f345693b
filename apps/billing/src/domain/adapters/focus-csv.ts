// A CSV reader for FOCUS files, made for speed: a file is read at the speed the database writes
// it (csv-parse, with the options the import needs, reads about 15 MB a second here, less than
// PostgreSQL's COPY takes). RFC 4180: fields in double quotes may hold commas, line breaks and
// doubled quotes; records end with LF, CRLF or CR. Blanks around a field (outside its quotes) are
// trimmed, empty lines skipped, a UTF-8 byte-order mark dropped; a quote inside an unquoted field
// is kept as text. What is not CSV (text after a closing quote, a quote never closed) is reported
// with its line, and reading goes on at the next line.

/** A record, or why the text from `line` could not be read as one. */
export type CsvItem = { cells: string[]; line: number } | { problem: string; line: number };

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;

/** Line breaks in `text` (CRLF counts once). */
function breaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count += 1;
  if (text.indexOf('\r') === -1) return count;
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1))
    if (text.charCodeAt(i + 1) !== LF) count += 1;
  return count;
}

/** Where the line that holds `from` ends (its line break, or the end of the text). */
function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return text.length;
}

/** The text after `at`'s line break (CRLF as one). */
function afterBreak(text: string, at: number): number {
  if (at >= text.length) return at;
  return text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === LF ? at + 2 : at + 1;
}

/**
 * Reads CSV text as it arrives: `push` each piece, then `end`. Each answers the records (and
 * problems) complete so far, with the line each ends on (the first line is 1). A record still
 * arriving is kept; reading it again waits until the text after it has doubled, so a long record
 * costs linear time.
 */
export class CsvReader {
  #rest = '';
  #line = 1;
  #wait = 0;
  #first = true;

  push(text: string): CsvItem[] {
    if (this.#first && text.length > 0) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.#rest = this.#rest.length === 0 ? text : this.#rest + text;
    if (this.#rest.length < this.#wait) return [];
    return this.#read(false);
  }

  end(): CsvItem[] {
    return this.#read(true);
  }

  /** Characters held for a record still arriving. */
  get pending(): number {
    return this.#rest.length;
  }

  #read(final: boolean): CsvItem[] {
    const text = this.#rest;
    const n = text.length;
    const items: CsvItem[] = [];
    let pos = 0;
    let line = this.#line;
    while (pos < n) {
      const record = this.#record(text, pos, line, final);
      if (!record) break; // still arriving
      pos = record.next;
      if (record.problem !== undefined) items.push({ problem: record.problem, line: record.line });
      else if (record.cells.length > 1 || record.quoted || record.cells[0] !== '')
        items.push({ cells: record.cells, line: record.line });
      line = record.nextLine;
    }
    this.#rest = pos >= n ? '' : text.slice(pos);
    this.#line = line;
    this.#wait = this.#rest.length * 2;
    return items;
  }

  /**
   * The record at `pos` (on line `line`): its cells, or the problem found in it, and where the
   * next one starts; undefined when it is not complete yet (unless `final`).
   */
  #record(text: string, pos: number, line: number, final: boolean): Scanned | undefined {
    const n = text.length;
    const cells: string[] = [];
    let quoted = false;
    for (;;) {
      let c = text.charCodeAt(pos);
      while (c === SPACE || c === TAB) c = text.charCodeAt(++pos);
      if (c === QUOTE) {
        quoted = true;
        let value = '';
        let from = pos + 1;
        for (;;) {
          const q = text.indexOf('"', from);
          if (q === -1 || (q === n - 1 && !final)) {
            if (!final) return undefined;
            const problem = `Quote Not Closed: the quote opened on line ${line} is not closed at the end of the file`;
            return { problem, line, next: n, nextLine: line + breaks(text.slice(pos)) };
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          value += text.slice(from, q);
          pos = q + 1;
          break;
        }
        line += breaks(value);
        cells.push(value);
        c = text.charCodeAt(pos);
        while (c === SPACE || c === TAB) c = text.charCodeAt(++pos);
      } else {
        let end = pos;
        while (end < n) {
          c = text.charCodeAt(end);
          if (c === COMMA || c === LF || c === CR) break;
          end += 1;
        }
        let last = end;
        while (last > pos && isBlank(text.charCodeAt(last - 1))) last -= 1;
        cells.push(text.slice(pos, last));
        pos = end;
      }
      if (pos >= n) {
        if (!final) return undefined;
        return { cells, quoted, line, next: n, nextLine: line };
      }
      c = text.charCodeAt(pos);
      if (c === COMMA) {
        pos += 1;
        continue;
      }
      if (c === CR && pos === n - 1 && !final) return undefined; // its LF may come next
      if (c === LF || c === CR)
        return { cells, quoted, line, next: afterBreak(text, pos), nextLine: line + 1 };
      const end = lineEnd(text, pos);
      if (end >= n && !final) return undefined;
      const problem = `Invalid Closing Quote: ${JSON.stringify(text.slice(pos, Math.min(end, pos + 10)))} follows a closing quote on line ${line}`;
      return { problem, line, next: afterBreak(text, end), nextLine: end < n ? line + 1 : line };
    }
  }
}

type Scanned = (
  { cells: string[]; quoted: boolean; problem?: undefined } | { problem: string; cells?: undefined }
) & { line: number; next: number; nextLine: number };

const isBlank = (c: number) => c === SPACE || c === TAB;
