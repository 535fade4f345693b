// Templates in workflow steps: `{{ input.email }}`, `{{ steps.sheet.spreadsheetId }}`, ... A small
// grammar of lookups only (a root, then `.name` or `[index]` segments), never evaluated code.
import type { RenderBudget } from './limits.js';

/** The roots a template may start with. */
export const ROOTS = ['config', 'auth', 'input', 'app', 'steps', 'item', 'index'] as const;
export type Root = (typeof ROOTS)[number];

const TEMPLATE = /\{\{([^{}]*)\}\}/g;
const WHOLE = /^\s*\{\{([^{}]*)\}\}\s*$/;
const PATH = /^([A-Za-z]+)((?:\.[A-Za-z0-9_-]+|\[\d+\])*)$/;
const SEGMENT = /\.([A-Za-z0-9_-]+)|\[(\d+)\]/g;

/** A template that cannot be parsed or looked up; `variable` is what it names. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly variable: string,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

export interface Lookup {
  root: Root;
  /** Property names and array indexes after the root. */
  segments: Array<string | number>;
  /** As written, without braces and spaces: `steps.row.updatedRange`. */
  text: string;
}

/** Parses the inside of `{{ ... }}`. */
export function parseLookup(inside: string): Lookup {
  const text = inside.trim();
  const match = PATH.exec(text);
  if (!match)
    throw new TemplateError(
      `Invalid template {{ ${text} }}: only lookups such as {{ input.name }} or {{ steps.row.values[0] }} are allowed`,
      text,
    );
  const root = match[1] as Root;
  if (!ROOTS.includes(root))
    throw new TemplateError(
      `Unknown template variable ${text}: it must start with ${ROOTS.join(', ')}`,
      text,
    );
  const segments: Array<string | number> = [];
  for (const [, name, index] of match[2].matchAll(SEGMENT))
    segments.push(name === undefined ? Number(index) : name);
  return { root, segments, text };
}

/** Every lookup in a value's strings, nested ones included (to check a definition). */
export function lookupsIn(value: unknown, found: Lookup[] = []): Lookup[] {
  if (typeof value === 'string')
    for (const [, inside] of value.matchAll(TEMPLATE)) found.push(parseLookup(inside));
  else if (Array.isArray(value)) for (const item of value) lookupsIn(item, found);
  else if (value && typeof value === 'object')
    for (const item of Object.values(value)) lookupsIn(item, found);
  return found;
}

/** `item` and `index`: the element of a forEach, and its place (inside its steps only). */
export type Scope = Record<Exclude<Root, 'item' | 'index'>, unknown> &
  Partial<Record<'item' | 'index', unknown>>;

/** Own properties only: `constructor` or `__proto__` never reach an object's prototype. */
function get(scope: Scope, lookup: Lookup): unknown {
  const root = lookup.root;
  if ((root === 'item' || root === 'index') && !(root in scope))
    throw new TemplateError(`Unknown template variable ${lookup.text}: ${root} is defined in the steps of a forEach only`, lookup.text); // prettier-ignore
  let current: unknown = scope[root];
  let path: string = lookup.root;
  for (const segment of lookup.segments) {
    path += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
    const holder = current as Record<string | number, unknown>;
    const has =
      typeof segment === 'number'
        ? Array.isArray(current) && segment < current.length
        : current !== null &&
          typeof current === 'object' &&
          !Array.isArray(current) &&
          Object.prototype.hasOwnProperty.call(current, segment);
    if (!has) throw new TemplateError(`Unknown template variable ${path}`, path);
    current = holder[segment];
  }
  return current;
}

const asText = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);

/**
 * A string with templates resolved: exactly one template (spaces around it allowed) keeps the
 * value's type (a number, an object); otherwise each is interpolated as text (null as nothing,
 * objects and arrays as JSON).
 */
export function renderString(text: string, scope: Scope, budget?: RenderBudget): unknown {
  const whole = WHOLE.exec(text);
  if (whole) {
    const value = get(scope, parseLookup(whole[1]));
    budget?.spend(typeof value === 'string' ? value.length : (JSON.stringify(value) ?? '').length);
    return structuredClone(value);
  }
  budget?.spend(text.length);
  return text.replace(TEMPLATE, (_, inside: string) => {
    const piece = asText(get(scope, parseLookup(inside)));
    budget?.spend(piece.length);
    return piece;
  });
}

/**
 * A value with templates resolved in every string, nested ones and object keys' values; with a
 * budget, a 413 as soon as the text made exceeds it (before it is all in memory).
 */
export function render(value: unknown, scope: Scope, budget?: RenderBudget): unknown {
  if (typeof value === 'string') return renderString(value, scope, budget);
  if (Array.isArray(value)) return value.map((item) => render(item, scope, budget));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, scope, budget)]));
  return value;
}
