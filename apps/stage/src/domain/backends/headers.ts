import { validateHeaderName, validateHeaderValue } from 'node:http';

/** At most this many response headers, and this many bytes of them (names and values). */
export const MAX_RESPONSE_HEADERS = 100;
export const MAX_RESPONSE_HEADER_BYTES = 32 * 1024;

/**
 * Why a backend's response headers cannot be sent (an invalid name or value, too many, too
 * large), or null when they can: checked in the runtime and again in the service, so that a bad
 * header is a 502 envelope, never a failure of Node's HTTP layer.
 */
export function headersProblem(headers: ReadonlyArray<readonly [string, string]>): string | null {
  if (headers.length > MAX_RESPONSE_HEADERS)
    return `it sent ${headers.length} headers, over ${MAX_RESPONSE_HEADERS}`;
  let bytes = 0;
  for (const [name, value] of headers) {
    bytes += name.length + value.length + 4;
    if (bytes > MAX_RESPONSE_HEADER_BYTES)
      return `its headers are over ${MAX_RESPONSE_HEADER_BYTES} bytes`;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return `its header ${JSON.stringify(name.slice(0, 60))} has an invalid name or value`;
    }
  }
  return null;
}
