import { badRequest } from '@platform/core';

/** Deeper than any GitHub payload (about 10 levels); PostgreSQL's jsonb stays well within its stack. */
export const MAX_PAYLOAD_DEPTH = 200;

// jsonb refuses U+0000 and lone UTF-16 surrogates (JSON.stringify writes both as \u escapes).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const storableText = (text: string) =>
  text.replace(/\u0000/g, '').replace(LONE_SURROGATE, '\uFFFD');

/**
 * A parsed delivery made storable as jsonb, in place: U+0000 removed from every string and key,
 * lone surrogates replaced by U+FFFD. Iterative (a deep payload cannot overflow the stack); deeper
 * than MAX_PAYLOAD_DEPTH is a 400.
 */
export function storablePayload<T>(payload: T): T {
  const stack: Array<[unknown, number]> = [[payload, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth > MAX_PAYLOAD_DEPTH)
      throw badRequest(`The body nests deeper than ${MAX_PAYLOAD_DEPTH} levels`);
    const record = node as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const value = record[key];
      const cleanKey = storableText(key);
      const cleanValue = typeof value === 'string' ? storableText(value) : value;
      if (cleanKey !== key) delete record[key];
      if (cleanKey !== key || cleanValue !== value)
        // defineProperty: a key such as __proto__ stays a plain property.
        Object.defineProperty(record, cleanKey, {
          value: cleanValue,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      if (typeof value === 'object' && value !== null) stack.push([value, depth + 1]);
    }
  }
  return payload;
}
