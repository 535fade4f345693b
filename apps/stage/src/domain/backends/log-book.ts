import { LOG_LEVELS, type LogLevel, type LogLine, type RuntimeLimits } from './protocol.js';

interface Entry {
  lines: LogLine[];
  dropped: number;
}

const newEntry = (): Entry => ({ lines: [], dropped: 0 });

/**
 * The console.* lines of the runtime's isolates, by request (child.ts): a line belongs to the
 * request whose handler ran synchronously when it was logged, else to the request of its app
 * under way when there is exactly one (an isolate has no async context to tell concurrent
 * requests apart after an await); logged while several run, it is kept as nobody's (`own`
 * false) and handed over with the next of them to end. Lines logged with no request under way
 * are dropped (a backend does no background work). Bounded: STAGE_BACKEND_LOG_LINES_PER_REQUEST
 * lines per request (then one line saying how many more were dropped), each cut to
 * STAGE_BACKEND_LOG_LINE_BYTES.
 */
export class LogBook {
  private open = new Map<string, Map<number, Entry>>();
  private loose = new Map<string, Entry>();

  constructor(
    private readonly limits: Pick<RuntimeLimits, 'logLineBytes' | 'logLinesPerRequest'>,
  ) {}

  /** A request of `sid` starts (before its isolate boots: what booting logs is its). */
  begin(sid: string, id: number) {
    let requests = this.open.get(sid);
    if (!requests) this.open.set(sid, (requests = new Map()));
    requests.set(id, newEntry());
  }

  /**
   * A console call of an isolate of `sid`: `[level, text, request]` as the isolate sends it,
   * `request` the one whose handler ran synchronously then (null after an await).
   */
  add(sid: string, arg: unknown) {
    if (!Array.isArray(arg) || arg.length !== 3) return;
    const [level, text, hint] = arg as [unknown, unknown, unknown];
    if (!LOG_LEVELS.includes(level as LogLevel) || typeof text !== 'string') return;
    const requests = this.open.get(sid);
    if (!requests) return;
    const named = typeof hint === 'number' ? requests.get(hint) : undefined;
    const own = named !== undefined || requests.size === 1;
    let entry = named ?? (own ? [...requests.values()][0] : this.loose.get(sid));
    if (!entry) this.loose.set(sid, (entry = newEntry()));
    if (entry.lines.length >= this.limits.logLinesPerRequest) {
      entry.dropped += 1;
      return;
    }
    entry.lines.push({ at: Date.now(), level: level as LogLevel, message: this.cut(text), own });
  }

  /** The request ended: its lines, and the app's lines of nobody's so far. */
  end(sid: string, id: number): LogLine[] {
    const requests = this.open.get(sid);
    const entry = requests?.get(id);
    requests?.delete(id);
    if (requests?.size === 0) this.open.delete(sid);
    const loose = this.loose.get(sid);
    this.loose.delete(sid);
    return [...this.finish(entry, true), ...this.finish(loose, false)];
  }

  private finish(entry: Entry | undefined, own: boolean): LogLine[] {
    if (!entry) return [];
    if (entry.dropped === 0) return entry.lines;
    const message = `… ${entry.dropped} more lines dropped (STAGE_BACKEND_LOG_LINES_PER_REQUEST is ${this.limits.logLinesPerRequest})`;
    return [...entry.lines, { at: Date.now(), level: 'warn', message, own }];
  }

  private cut(text: string) {
    const max = this.limits.logLineBytes;
    if (text.length * 3 <= max || Buffer.byteLength(text) <= max) return text;
    // Cut on a character boundary: a split character would decode to U+FFFD, dropped.
    const head = Buffer.from(text)
      .subarray(0, max - 3)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    return `${head}…`;
  }
}
