import type { RouteShorthandOptions } from 'fastify';
import { badRequest, schemaErrorFormatter } from '@platform/core';
import { dataOf, type Data } from '../repositories/files.js';

/**
 * Files in JSON: a text file is its text (a string, as the spec's push takes it), a binary file
 * (an image, a font: bytes that are not UTF-8 text, or hold NUL) `{ content: <base64>, encoding:
 * 'base64' }`. Answers mark binary files `binary: true`; text files carry no mark.
 */

/** A file's value in a push: text, or `{ content, encoding }`. */
export type Pushed = string | { content: string; encoding?: 'utf8' | 'base64' };

/** The content of a pushed file, checked: a 400 naming the path when it is not what it says. */
export function decodePushed(path: string, value: Pushed): Data {
  const text = typeof value === 'string' ? value : value.content;
  if (typeof value !== 'string' && value.encoding === 'base64') {
    const problem = base64Problem(text);
    if (problem) throw badRequest(`files ${path}: content is not valid base64 (${problem})`);
    // Bytes that are UTF-8 text are stored (and answered) as text: one form per content.
    return dataOf(Buffer.from(text, 'base64'));
  }
  // PostgreSQL's text cannot hold U+0000; nothing else is refused.
  if (text.includes('\u0000'))
    throw badRequest(`files ${path}: content must not contain NUL characters (U+0000)`);
  return text;
}

const ALPHABET = /[^A-Za-z0-9+/]/;

/**
 * What is wrong with `text` as base64 (RFC 4648: A-Z, a-z, 0-9, + and /, padded with = to a
 * multiple of 4; line breaks and spaces are ignored), or undefined when nothing is.
 */
export function base64Problem(value: string): string | undefined {
  const text = value.replace(/[\t\n\r ]+/g, '');
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const body = text.slice(0, text.length - padding);
  const bad = ALPHABET.exec(body);
  if (bad)
    return `${JSON.stringify(bad[0])} at character ${bad.index + 1}: only A-Z, a-z, 0-9, + and / (= at the end)`;
  if (text.length % 4 !== 0)
    return `${text.length} characters: base64 comes in groups of 4, padded with =`;
  return undefined;
}

/** A file's content as JSON answers give it: text as is, bytes in base64, marked. */
export const encoded = (content: Data) =>
  typeof content === 'string'
    ? { content }
    : { binary: true as const, content: content.toString('base64'), encoding: 'base64' as const };

/** The mark of a binary file in answers without its content. */
export const binaryMark = (binary: boolean) => (binary ? { binary: true as const } : {});

type Formatter = NonNullable<RouteShorthandOptions['schemaErrorFormatter']>;

/**
 * The push's validation errors, told as the platform tells them, of the form the file was sent
 * in: an object's own mistake (`files./a.encoding must be one of: utf8, base64`) rather than
 * "must be a string", which is the first form a file may take.
 */
export const pushErrorFormatter: Formatter = (errors, where) => {
  const first = errors[0] as (typeof errors)[number] & { data?: unknown };
  const sent = first?.data;
  if (first?.schemaPath.includes('/anyOf/0/') && typeof sent === 'object' && sent !== null) {
    const own = errors.find((error) => error.schemaPath.includes('/anyOf/1/'));
    if (own) return schemaErrorFormatter([own], where);
  }
  return schemaErrorFormatter(errors, where);
};
