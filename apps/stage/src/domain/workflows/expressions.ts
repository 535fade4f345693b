// Expressions of the control keys (`if`, `forEach`, `set`, `return`, `waitFor.match`): the
// inside of `{{ ... }}` is JSONata (https://jsonata.org), evaluated over the run's scope (input,
// steps, config, auth, app, item, index): comparisons, boolean logic, arithmetic, string and array
// functions; never JavaScript. Bounded: JSONata's own guardrails (an evaluation time box checked
// at every evaluation step, a stack depth, a sequence length), a capped $pad, and the JSON size
// of each result.
import jsonata from 'jsonata';
import { badRequest } from '@platform/core';
import { MAX_RENDERED_CHARS, tooLarge } from './limits.js';

/** Milliseconds one expression may take, at most (checked at every evaluation step). */
export const EXPRESSION_TIMEOUT_MS = 250;
/** Nested evaluations (recursion) of one expression, at most. */
export const EXPRESSION_STACK = 200;
/** Items of one sequence an expression makes (`[1..n]`, a mapping), at most. */
export const EXPRESSION_SEQUENCE = 100_000;
const MAX_PAD = 100_000;

const OPTIONS = {
  timeout: EXPRESSION_TIMEOUT_MS,
  stack: EXPRESSION_STACK,
  sequence: EXPRESSION_SEQUENCE,
};

const TEMPLATE = /\{\{([^{}]*)\}\}/g;
const WHOLE = /^\s*\{\{([\s\S]*)\}\}\s*$/;

/**
 * The expression of a string that is one `{{ ... }}` as a whole: it may hold braces (object
 * constructors, function bodies); templates within text may not.
 */
export function wholeExpression(text: string): string | null {
  const match = WHOLE.exec(text);
  return match && !match[1].includes('{{') ? match[1] : null;
}

interface JsonataError {
  code?: string;
  message?: string;
  position?: number;
}

const messageOf = (error: unknown) => {
  const e = error as JsonataError;
  return `${e.message ?? String(error)}${e.code ? ` (${e.code}${e.position !== undefined ? ` at ${e.position}` : ''})` : ''}`;
};

/** Compiles one expression; a syntax error is a 400 naming `where`. */
export function compile(source: string, where: string) {
  try {
    return jsonata(source, OPTIONS);
  } catch (error) {
    throw badRequest(`${where}: invalid expression {{ ${source.trim()} }}: ${messageOf(error)}`);
  }
}

/** Every expression in a value's strings is valid JSONata (what saving or running checks). */
export function checkExpressions(value: unknown, where: string): void {
  if (typeof value === 'string') {
    const whole = wholeExpression(value);
    if (whole !== null) compile(whole, where);
    else for (const [, inside] of value.matchAll(TEMPLATE)) compile(inside, where);
  } else if (Array.isArray(value))
    value.forEach((item, i) => checkExpressions(item, `${where}[${i}]`)); // prettier-ignore
  else if (value && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) checkExpressions(item, `${where}.${key}`);
}

/** $pad, capped: the one built-in that makes a large string in a single step. */
const pad = (text: string, width: number, char?: string) => {
  if (Math.abs(width) > MAX_PAD) throw new Error(`$pad: width is at most ${MAX_PAD}`);
  const fill = char ?? ' ';
  const missing = Math.max(0, Math.abs(width) - [...text].length);
  const padding = fill.repeat(Math.ceil(missing / Math.max(1, fill.length))).slice(0, missing);
  return width < 0 ? padding + text : text + padding;
};

/** One expression's value as plain JSON (undefined: nothing matched, null). */
export async function evaluate(source: string, scope: object, where: string): Promise<unknown> {
  const expression = compile(source, where);
  let value: unknown;
  try {
    value = await expression.evaluate(scope, { pad });
  } catch (error) {
    throw badRequest(`${where}: the expression {{ ${source.trim()} }} failed: ${messageOf(error)}`); // prettier-ignore
  }
  if (value === undefined) return null;
  if (typeof value === 'function') return null;
  const text = JSON.stringify(value) ?? 'null';
  if (text.length > MAX_RENDERED_CHARS) throw tooLarge(`${where}: the value of {{ ${source.trim()} }}`, text.length); // prettier-ignore
  return JSON.parse(text) as unknown;
}

/**
 * A value with its expressions evaluated: a string that is exactly one `{{ }}` keeps the value's
 * type; otherwise each is interpolated as text (null as nothing, objects as JSON).
 */
export async function evaluateAll(value: unknown, scope: object, where: string): Promise<unknown> {
  if (typeof value === 'string') {
    const whole = wholeExpression(value);
    if (whole !== null) return evaluate(whole, scope, where);
    let out = '';
    let last = 0;
    for (const match of value.matchAll(TEMPLATE)) {
      const got = await evaluate(match[1], scope, where);
      out += value.slice(last, match.index) + (got === null ? '' : typeof got === 'string' ? got : JSON.stringify(got)); // prettier-ignore
      last = (match.index ?? 0) + match[0].length;
      if (out.length > MAX_RENDERED_CHARS) throw tooLarge(where, 'over');
    }
    return out + value.slice(last);
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const [i, item] of value.entries()) out.push(await evaluateAll(item, scope, `${where}[${i}]`)); // prettier-ignore
    return out;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await evaluateAll(item, scope, `${where}.${key}`); // prettier-ignore
    return out;
  }
  return value;
}

/** An expression's truth as JSONata's $boolean has it. */
export const truthy = async (source: string, scope: object, where: string) => {
  const value = await evaluateAll(source, scope, where);
  if (Array.isArray(value)) return value.length > 0 && value.some((v) => Boolean(v));
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
};
