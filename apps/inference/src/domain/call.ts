import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, newId } from '@platform/core';
import { CallFailure, classify, timedOut } from './failures.js';
import { estimateTokens } from './mock.js';
import { costMicros } from './prices.js';
import type { RequestLog } from './request-log.js';
import type { Route } from './routing.js';

export type CallKind = 'chat' | 'stream' | 'embed' | 'image' | 'transcribe';

export interface Outcome {
  status: 'ok' | 'error' | 'aborted';
  /** As the provider reported them; undefined when it did not. */
  inputTokens?: number;
  outputTokens?: number;
  /** What to estimate from when the provider reported nothing. */
  inputText?: string;
  outputText?: string;
  error?: string;
}

/** What the service does around a call besides logging it (a key's limits, cool-downs). */
export interface CallHooks {
  /** Before the first attempt (and before the cache is read): throws to refuse the call. */
  admit?(routes: Route[]): Promise<unknown>;
  /** The admitted call ended: the tokens and cost to count (none for a cache hit). */
  settle?(tokens: number, costMicros: number): void;
  /** A route failed after its attempts for a reason the next call may meet too. */
  failed?(route: Route, failure: CallFailure): void;
}

/**
 * One inference call: its time limit and abort signal, its attempts, and its single request-log
 * row, queued by `finish` exactly once whatever happens (success, failure, client gone) and
 * written after the answer by the RequestLog.
 */
export class Call {
  readonly controller = new AbortController();
  readonly started = performance.now();
  route?: Route;
  attempts = 0;
  private firstOutput?: number;
  private finished?: Finished;
  readonly id = newId();
  private readonly timer: NodeJS.Timeout;
  private admission?: Promise<unknown>;
  private admitted = false;
  /** Answered from the response cache: logged with no cost, counted as no tokens. */
  cached = false;

  constructor(
    private readonly log: RequestLog,
    readonly kind: CallKind,
    readonly requestId: string,
    readonly app: string | null,
    readonly timeoutMs: number,
    /** Who made the call (`creatorOf` the caller): the log row is theirs to read. */
    readonly createdBy: string | null = null,
    /** The platform API key that makes the call (its limits apply), if any. */
    readonly keyId: string | null = null,
    readonly hooks: CallHooks = {},
  ) {
    this.timer = setTimeout(() => this.controller.abort('timeout'), timeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The client went away: stop the provider call now. */
  clientGone() {
    if (!this.signal.aborted) this.controller.abort('client');
  }

  /** Admits the call once (a key's limits): every later call answers the first's outcome. */
  admit(routes: Route[]): Promise<unknown> {
    this.admission ??= (this.hooks.admit?.(routes) ?? Promise.resolve()).then((value) => {
      this.admitted = true;
      return value;
    });
    return this.admission;
  }

  markFirstOutput() {
    this.firstOutput ??= performance.now();
  }

  remainingMs() {
    return this.timeoutMs - (performance.now() - this.started);
  }

  /** The failure an aborted call reports: the time limit, or the client that left. */
  abortFailure(): CallFailure {
    return this.signal.reason === 'timeout'
      ? timedOut(this.timeoutMs)
      : new CallFailure(400, 'BAD_REQUEST', 'The client closed the connection');
  }

  /** The log row's values, at once; the row is queued for writing. Once per call. */
  finish(outcome: Outcome): Finished {
    this.finished ??= this.record(outcome);
    return this.finished;
  }

  private record(outcome: Outcome): Finished {
    clearTimeout(this.timer);
    const reported = outcome.inputTokens !== undefined || outcome.outputTokens !== undefined;
    const estimate = (text?: string) => (text === undefined ? null : estimateTokens(text));
    const input = reported ? (outcome.inputTokens ?? null) : estimate(outcome.inputText);
    const output = reported ? (outcome.outputTokens ?? null) : estimate(outcome.outputText);
    const estimated = !reported && (input !== null || output !== null);
    const route = this.route;
    const row = {
      id: this.id,
      provider_id: route?.provider.id ?? null,
      provider: route?.provider.name ?? null,
      model: route?.requested ?? null,
      kind: this.kind,
      status: outcome.status,
      input_tokens: input,
      output_tokens: output,
      estimated,
      attempts: this.attempts,
      duration_ms: Math.round(performance.now() - this.started),
      ttft_ms: this.firstOutput === undefined ? null : Math.round(this.firstOutput - this.started),
      cost_micros: this.cached ? 0 : route ? costMicros(route.model, input, output) : null,
      error: outcome.error ?? null,
      request_id: this.requestId,
      app: this.app,
      created_by: this.createdBy,
      key_id: this.keyId,
      cached: this.cached,
    };
    if (this.admitted && !this.cached)
      this.hooks.settle?.((input ?? 0) + (output ?? 0), row.cost_micros ?? 0);
    this.log.add({
      ...row,
      cost_micros: row.cost_micros === null ? null : String(row.cost_micros),
      created_at: new Date(),
    });
    return { id: this.id, usage: { inputTokens: input ?? 0, outputTokens: output ?? 0 } };
  }
}

export interface Finished {
  id: string;
  usage: { inputTokens: number; outputTokens: number };
}

/**
 * Runs `run` on each route in order (the model, then its fallbacks), up to `maxAttempts` times
 * each while the failure is transient (429, 5xx, overloaded), waiting Retry-After or a doubling
 * pause; `run` must not have sent anything to the client when it throws. An ApiError thrown by
 * `run` is the platform's own refusal: it passes through unchanged, with no retry nor fallback.
 */
export async function withRetries<T>(
  call: Call,
  routes: Route[],
  maxAttempts: number,
  run: (route: Route) => PromiseLike<T>,
): Promise<T> {
  await call.admit(routes);
  let last: CallFailure | undefined;
  for (const route of routes) {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      call.route = route;
      call.attempts++;
      try {
        return await run(route);
      } catch (error) {
        if (call.signal.aborted) throw call.abortFailure();
        // Our own refusal (e.g. a capability the provider lacks): as it is, never retried.
        if (error instanceof ApiError) throw error;
        last = classify(error, route.provider);
        if (last.retryable && attempt === maxAttempts) call.hooks.failed?.(route, last);
        if (!last.retryable || attempt === maxAttempts) break;
        const pause = last.retryAfterMs ?? 250 * 2 ** (attempt - 1);
        if (pause >= call.remainingMs()) break;
        try {
          await sleep(pause, undefined, { signal: call.signal });
        } catch {
          throw call.abortFailure();
        }
      }
    }
  }
  throw last ?? new CallFailure(502, 'BAD_GATEWAY', 'No provider could be called');
}
