// Limits of a workflow run (documented in the README's Workflows section): nesting depth,
// sizes, and the NUL character that Postgres cannot store.
import { ApiError, badRequest } from '@platform/core';

/** Nesting depth of a step's value in the definition, and of the run's `input`. */
export const MAX_DEPTH = 64;
/** Characters of JSON of the body's `input`. */
export const MAX_INPUT_CHARS = 256 * 1024;
/** Characters of JSON of one step's input once templates are resolved (respond's is the result). */
export const MAX_RENDERED_CHARS = 1024 * 1024;
/** Rows of a sheets.getValues output kept in the run record (the run itself reads them all). */
export const RECORDED_ROWS = 3;

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';
const child = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`;

/** The path of the first value nested deeper than `max` levels, or null. Not recursive. */
export function tooDeep(value: unknown, path: string, max = MAX_DEPTH): string | null {
  const stack: Array<[unknown, string, number]> = [[value, path, 0]];
  while (stack.length) {
    const [current, where, depth] = stack.pop()!;
    if (!isContainer(current)) continue;
    if (depth >= max) return where;
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, item] of entries) stack.push([item, child(where, key), depth + 1]);
  }
  return null;
}

/** The path of the first string or key holding U+0000, or null. Not recursive. */
export function nulAt(value: unknown, path: string): string | null {
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length) {
    const [current, where] = stack.pop()!;
    if (typeof current === 'string' && current.includes('\0')) return where;
    if (!isContainer(current)) continue;
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, item] of entries) {
      if (typeof key === 'string' && key.includes('\0')) return child(where, key);
      stack.push([item, child(where, key)]);
    }
  }
  return null;
}

/** 400 naming the field when `value` holds U+0000 (Postgres stores none). */
export function refuseNul(value: unknown, field: string) {
  const at = nulAt(value, field);
  if (at) throw badRequest(`field ${at} contains the NUL character (\\u0000), which is not stored`);
}

/** 400 naming the field when `value` nests deeper than MAX_DEPTH. */
export function refuseDeep(value: unknown, field: string, prefix = '') {
  const at = tooDeep(value, field);
  if (at)
    throw badRequest(`${prefix}field ${field} nests deeper than ${MAX_DEPTH} levels (at ${at})`);
}

/** `\u0000` escapes (not `\\u0000`) in JSON text. */
const NUL_ESCAPE = /(?<=(?:^|[^\\])(?:\\\\)*)\\u0000/g;

/** A value as jsonb text without U+0000 (stripped): what is recorded can always be stored. */
export const storable = <T>(value: T): T =>
  JSON.stringify(value ?? null).replace(NUL_ESCAPE, '') as unknown as T;

/** Text to store: U+0000 stripped. */
export const storableText = (text: string) => text.replaceAll('\0', '');

/** The 413 of a value over `max` characters of JSON. */
export function tooLarge(what: string, chars: number | 'over', max = MAX_RENDERED_CHARS) {
  return new ApiError(
    'PAYLOAD_TOO_LARGE',
    `${what} is ${chars === 'over' ? `over ${max}` : chars} characters of JSON, at most ${max} (${max >= 1 << 20 ? `${max / (1 << 20)} MiB` : `${max / 1024} KiB`})`,
  );
}

/** A budget of characters spent while rendering, so a template bomb stops early. */
export class RenderBudget {
  left: number;
  constructor(
    readonly what: string,
    readonly max = MAX_RENDERED_CHARS,
  ) {
    this.left = max;
  }
  spend(chars: number) {
    this.left -= chars;
    if (this.left < 0) throw tooLarge(this.what, 'over', this.max);
  }
}

/** A sheets.getValues output as recorded: the first RECORDED_ROWS rows, and how many there were. */
export function recordedOutput(block: string, output: unknown): unknown {
  if (block !== 'sheets.getValues' || !isContainer(output)) return output;
  const values = (output as { values?: unknown }).values;
  if (!Array.isArray(values) || values.length <= RECORDED_ROWS) return output;
  return {
    ...output,
    values: values.slice(0, RECORDED_ROWS),
    recordedRows: RECORDED_ROWS,
    rows: values.length,
  };
}
