// The control keys of a workflow's steps (issue 40): if / then / else, forEach, parallel, return,
// set, sleep and waitFor, beside the blocks (definition.ts). Each is checked here, its expressions
// compiled, errors naming the step's path (steps[2].then[0]).
import { badRequest } from '@platform/core';
import { checkExpressions, wholeExpression } from './expressions.js';
import { MAX_RENDERED_CHARS } from './limits.js';

/** Nested control steps (an if in a forEach in a parallel ...), at most. */
export const MAX_NESTING = 8;
/** Steps of a workflow counting nested ones, at most. */
export const MAX_ALL_STEPS = 300;
export const MAX_CONCURRENCY = 16;
export const MAX_RETRY_ATTEMPTS = 10;
export const MAX_BACKOFF_MS = 5 * 60_000;
/** The longest sleep, and the longest wait of a waitFor. */
export const MAX_WAIT_MS = 30 * 24 * 3600_000;

export interface Retry {
  /** Attempts in all, the first included. */
  attempts: number;
  /** The pause after the first failed attempt; doubled after each next one. */
  backoffMs: number;
}

interface Base {
  /** The top-level step it is in (steps[index]). */
  index: number;
  as: string | null;
}

export type ControlNode<N = unknown> =
  | (Base & { kind: 'if'; condition: string; then: N[]; else: N[] })
  | (Base & { kind: 'forEach'; items: string; concurrency: number; steps: N[] })
  | (Base & { kind: 'parallel'; branches: N[][] })
  | (Base & { kind: 'return'; value: unknown })
  | (Base & { kind: 'set'; value: unknown })
  | (Base & { kind: 'sleep'; duration: string })
  | (Base & {
      kind: 'waitFor';
      approval: { message: string | null } | null;
      event: string | null;
      match: string | null;
      timeoutMs: number;
    });

export const CONTROL_KEYS = ['if', 'forEach', 'parallel', 'return', 'set', 'sleep', 'waitFor'];
const BESIDE: Record<string, string[]> = {
  if: ['then', 'else', 'as'],
  forEach: ['steps', 'concurrency', 'as'],
  parallel: ['as'],
  return: [],
  set: ['as'],
  sleep: ['as'],
  waitFor: ['as'],
};

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3600_000, d: 86_400_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** "100ms", "2s", "5m", "1h", "3d" in milliseconds, or null. */
export function durationMs(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const match = DURATION.exec(text.trim());
  return match ? Math.round(Number(match[1]) * UNITS[match[2]]) : null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isTemplate = (v: unknown) => typeof v === 'string' && wholeExpression(v) !== null;

/** Where parsing is: the workflow, the names taken so far, the nesting, and the count. */
export interface ParseState {
  workflow: string;
  names: Set<string>;
  count: { n: number };
  depth: number;
}

/** A control step of the raw definition, or null when it is a block's. */
export function parseControl<N>(
  raw: Record<string, unknown>,
  path: string,
  index: number,
  state: ParseState,
  nested: (steps: unknown, path: string, state: ParseState) => N[],
  takeName: (as: unknown, label: string) => string | null,
): ControlNode<N> | null {
  const kind = CONTROL_KEYS.find((k) => k in raw);
  if (!kind) return null;
  const where = `Workflow ${state.workflow}, ${path} (${kind})`;
  const fail = (message: string) => badRequest(`${where}: ${message}`);
  for (const key of Object.keys(raw))
    if (key !== kind && !BESIDE[kind].includes(key))
      throw fail(`unknown field ${key} (${kind} takes ${[kind, ...BESIDE[kind]].join(', ')})`);
  const value = raw[kind];
  checkExpressions(value, where);
  const inner = { ...state, depth: state.depth + 1 };
  if (kind !== 'return' && kind !== 'set' && inner.depth > MAX_NESTING)
    throw fail(`control steps nest deeper than ${MAX_NESTING} levels`);
  const as = takeName(raw.as ?? null, where);
  const base = { index, as };
  switch (kind) {
    case 'if':
      if (typeof value !== 'string' || !isTemplate(value))
        throw fail('its condition must be one expression, e.g. "{{ input.total > 100 }}"');
      {
        // Only one branch runs: each may name its steps as the other does.
        const branch = (key: 'then' | 'else') => {
          const names = new Set(state.names);
          return { steps: nested(raw[key] ?? [], `${path}.${key}`, { ...inner, names }), names };
        };
        const [then, otherwise] = [branch('then'), branch('else')];
        for (const name of [...then.names, ...otherwise.names]) state.names.add(name);
        return { ...base, kind, condition: value, then: then.steps, else: otherwise.steps };
      }
    case 'forEach': {
      if (typeof value !== 'string' || !isTemplate(value))
        throw fail('its value must be one expression giving an array, e.g. "{{ input.rows }}"');
      const concurrency = raw.concurrency ?? 1;
      if (
        !Number.isSafeInteger(concurrency) ||
        (concurrency as number) < 1 ||
        (concurrency as number) > MAX_CONCURRENCY
      )
        // prettier-ignore
        throw fail(`field concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
      if (!Array.isArray(raw.steps) || raw.steps.length === 0)
        throw fail('field steps must be a non-empty array of steps, run for each item');
      return { ...base, kind, items: value, concurrency: concurrency as number, steps: nested(raw.steps, `${path}.forEach[*]`, inner) }; // prettier-ignore
    }
    case 'parallel':
      if (!Array.isArray(value) || value.length < 1 || value.some((b) => !Array.isArray(b) || b.length === 0)) // prettier-ignore
        throw fail('its value must be an array of branches, each a non-empty array of steps');
      return { ...base, kind, branches: (value as unknown[][]).map((b, i) => nested(b, `${path}.parallel[${i}]`, inner)) }; // prettier-ignore
    case 'return':
    case 'set':
      if (JSON.stringify(value ?? null).length > MAX_RENDERED_CHARS)
        throw fail(`its value is over ${MAX_RENDERED_CHARS} characters of JSON`);
      return { ...base, kind, value: value ?? null };
    case 'sleep': {
      const ms = durationMs(value);
      if (!isTemplate(value) && (ms === null || ms > MAX_WAIT_MS))
        throw fail(`its value must be a duration such as "2s", "5m", "1h" or "3d", at most 30d`);
      return { ...base, kind, duration: value as string };
    }
    default:
      return { ...base, kind: 'waitFor', ...parseWait(value, fail) };
  }
}

function parseWait(value: unknown, fail: (m: string) => Error) {
  if (!isObject(value)) throw fail('its value must be { approval, timeout } or { event, match, timeout }'); // prettier-ignore
  for (const key of Object.keys(value))
    if (!['approval', 'event', 'match', 'timeout'].includes(key))
      throw fail(`unknown field ${key} (waitFor takes approval, event, match, timeout)`);
  const timeoutMs = durationMs(value.timeout);
  if (timeoutMs === null || timeoutMs > MAX_WAIT_MS)
    throw fail('field timeout must be a duration such as "10m", "1h" or "2d", at most 30d');
  const { approval, event, match } = value;
  if ((approval === undefined) === (event === undefined))
    throw fail('it waits for one thing: field approval or field event');
  if (approval !== undefined && approval !== true && !isObject(approval))
    throw fail('field approval must be true or { message }');
  const message = isObject(approval) ? (approval.message ?? null) : null;
  if (message !== null && typeof message !== 'string') throw fail('field approval.message must be a string'); // prettier-ignore
  if (event !== undefined)
    throw fail('waiting for a platform event is not available yet: wait for an approval, or start the workflow with an event trigger'); // prettier-ignore
  if (match !== undefined && (event === undefined || !isTemplate(match)))
    throw fail('field match is one expression over {{ event }}, with field event');
  return {
    approval: approval === undefined ? null : { message: message as string | null },
    event: (event as string | undefined) ?? null,
    match: (match as string | undefined) ?? null,
    timeoutMs,
  };
}

/** A block step's `retry: { attempts, backoff }`. */
export function parseRetry(raw: unknown, where: string): Retry | undefined {
  if (raw === undefined) return undefined;
  const fail = (m: string) => badRequest(`${where}: field retry${m}`);
  if (!isObject(raw)) throw fail(' must be { attempts, backoff }');
  for (const key of Object.keys(raw))
    if (key !== 'attempts' && key !== 'backoff') throw fail(` has an unknown field: ${key}`);
  const { attempts } = raw;
  if (
    !Number.isSafeInteger(attempts) ||
    (attempts as number) < 1 ||
    (attempts as number) > MAX_RETRY_ATTEMPTS
  )
    // prettier-ignore
    throw fail(`.attempts must be an integer from 1 to ${MAX_RETRY_ATTEMPTS}`);
  const backoffMs = raw.backoff === undefined ? 1000 : durationMs(raw.backoff);
  if (backoffMs === null || backoffMs > MAX_BACKOFF_MS)
    throw fail('.backoff must be a duration such as "100ms" or "2s", at most 5m');
  return { attempts: attempts as number, backoffMs };
}
