import { Agent, request } from 'undici';
import { sleep } from './waiting.js';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface Outcome {
  /** The request's number, in the order the workers sent them. */
  n: number;
  request: LoadRequest;
  /** When it was sent and when it was answered (or failed), from `performance.now()`. */
  sentAt: number;
  doneAt: number;
  /** HTTP status and parsed JSON body, when an answer arrived whole. */
  status?: number;
  body?: { success?: boolean; data?: unknown; error?: { code?: string; message?: string } };
  headers?: Record<string, string | string[] | undefined>;
  /**
   * Why no whole answer arrived: `unanswered` when the request failed before any answer (refused,
   * or the connection closed before a status line), `cut` when the answer began and broke off.
   */
  failure?: { kind: 'unanswered' | 'cut'; code: string };
}

export interface Load {
  outcomes: Outcome[];
  /** Stops sending and resolves with every outcome once the requests under way are settled. */
  stop(): Promise<Outcome[]>;
}

/**
 * A load generator: `concurrency` workers, each sending the next request as soon as its last one
 * settled, over keep-alive connections, until stopped. Failures are recorded, never thrown, so a
 * test can look at what happened to every request during a fault.
 */
export function startLoad(
  base: string,
  next: (n: number) => LoadRequest,
  { concurrency = 16, pauseMs = 0 } = {},
): Load {
  const agent = new Agent({ connections: concurrency, headersTimeout: 30_000 });
  const outcomes: Outcome[] = [];
  let stopped = false;
  let count = 0;

  async function send(n: number): Promise<Outcome> {
    const req = next(n);
    const sentAt = performance.now();
    const outcome = (rest: Partial<Outcome>): Outcome => ({
      n,
      request: req,
      sentAt,
      doneAt: performance.now(),
      ...rest,
    });
    let res;
    try {
      res = await request(`${base}${req.path}`, {
        dispatcher: agent,
        method: req.method,
        headers: req.body === undefined ? {} : { 'content-type': 'application/json' },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      });
    } catch (error) {
      return outcome({ failure: { kind: 'unanswered', code: errorCode(error) } });
    }
    try {
      const text = await res.body.text();
      return outcome({
        status: res.statusCode,
        headers: res.headers,
        body: JSON.parse(text) as Outcome['body'],
      });
    } catch (error) {
      return outcome({ status: res.statusCode, failure: { kind: 'cut', code: errorCode(error) } });
    }
  }

  const workers = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      outcomes.push(await send(count++));
      if (pauseMs > 0) await sleep(pauseMs);
    }
  });

  return {
    outcomes,
    async stop() {
      stopped = true;
      await Promise.all(workers);
      await agent.close();
      return outcomes.sort((a, b) => a.n - b.n);
    },
  };
}

function errorCode(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string };
  return e.code ?? e.name ?? String(e.message);
}
