import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';

/** How deep a JSON body may nest: deeper, a 400 (validating and storing it would recurse). */
export const MAX_JSON_DEPTH = 256;

/** Whether JSON text nests deeper than MAX_JSON_DEPTH (one pass, strings skipped). */
export function nestedTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > MAX_JSON_DEPTH) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * JSON only: any other media type is a 415, not a string handed to a JSON schema. JSON bodies go
 * through Fastify's own parser (prototype poisoning refused) once those nested deeper than
 * MAX_JSON_DEPTH levels are refused.
 */
export function jsonBodiesOnly(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (nestedTooDeep(body as string))
      return done(
        badRequest(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
    return parse(request, body as string, done);
  });
}
