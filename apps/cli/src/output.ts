import { SingleBar } from 'cli-progress';

/** How a command prints: --json (the data exactly), --quiet (nothing), or tables and messages. */
export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
}

type Row = Record<string, unknown>;

/** A cell: scalars as they are, lists joined, objects as compact JSON, null and undefined empty. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value.every((v) => typeof v !== 'object') ? value.join(', ') : JSON.stringify(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/\s*\n\s*/g, ' ');
}

/** Aligned columns with a header in capitals; the last column is not padded. */
export function table(rows: Row[], columns: string[]): string {
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const header = columns.map((column) => column.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase());
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}

/** The columns to show when a command names none: identity first, then short scalar fields. */
export function defaultColumns(rows: Row[]): string[] {
  const first = rows[0] ?? {};
  const keys = Object.keys(first);
  const lead = ['id', 'sid', 'name'].filter((key) => key in first);
  const scalar = keys.filter(
    (key) => !lead.includes(key) && (first[key] === null || typeof first[key] !== 'object'),
  );
  return [...lead, ...scalar].slice(0, 6);
}

export class Output {
  constructor(readonly options: OutputOptions) {}

  get human(): boolean {
    return !this.options.json && !this.options.quiet;
  }

  /** A line for people (not with --json or --quiet). */
  message(text: string): void {
    if (this.human) process.stdout.write(`${text}\n`);
  }

  /** The API's data: as JSON with --json, else a table (lists) or fields (one record). */
  data(data: unknown, columns?: string[], human?: () => string): void {
    if (this.options.quiet) return;
    if (this.options.json) {
      process.stdout.write(`${JSON.stringify(data ?? null, null, 2)}\n`);
      return;
    }
    process.stdout.write(`${human ? human() : this.render(data, columns)}\n`);
  }

  render(data: unknown, columns?: string[]): string {
    if (Array.isArray(data)) {
      if (data.length === 0) return 'No results.';
      if (typeof data[0] !== 'object' || data[0] === null) return data.map(cell).join('\n');
      return table(data as Row[], columns ?? defaultColumns(data as Row[]));
    }
    if (data && typeof data === 'object') return fields(data as Row);
    return cell(data);
  }

  /** A progress bar on stderr, only when stdout is a terminal and output is for people. */
  progress(total: number, what: string): Progress {
    if (!this.human || !process.stdout.isTTY || total < 2) return { increment() {}, stop() {} };
    const bar = new SingleBar({
      format: `${what} [{bar}] {value}/{total}`,
      stream: process.stderr,
      hideCursor: true,
    });
    bar.start(total, 0);
    return { increment: (n = 1) => bar.increment(n), stop: () => bar.stop() };
  }
}

/** An honest sign of life for work of unknown length: a spinner, the time spent, the latest status. */
export function spinner(out: Output, what: string): Spinner {
  if (!out.human || !process.stdout.isTTY) return { update() {}, stop() {} };
  const frames = ['|', '/', '-', '\\'];
  const start = Date.now();
  let frame = 0;
  let detail = '';
  const draw = () =>
    process.stderr.write(
      `\r${frames[frame++ % frames.length]} ${what} ${Math.floor((Date.now() - start) / 1000)} s ${detail}\x1b[K`,
    );
  const timer = setInterval(draw, 200);
  draw();
  return {
    update: (text) => {
      detail = text;
    },
    stop: () => {
      clearInterval(timer);
      process.stderr.write('\r\x1b[K');
    },
  };
}

export interface Spinner {
  update(detail: string): void;
  stop(): void;
}

export interface Progress {
  increment(n?: number): void;
  stop(): void;
}

/** One record as `key: value` lines, keys aligned. */
export function fields(row: Row): string {
  const keys = Object.keys(row);
  const width = Math.max(0, ...keys.map((key) => key.length));
  return keys.map((key) => `${`${key}:`.padEnd(width + 1)} ${cell(row[key])}`).join('\n');
}
