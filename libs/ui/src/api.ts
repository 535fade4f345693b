import {
  ConnectionError,
  PlatformError,
  createClient,
  fetchTransport,
} from '@platform/client/browser';

/** The typed client of every service, over fetch on this origin (the session cookie goes along). */
export const api = createClient(fetchTransport());

export { PlatformError, ConnectionError };
import type { ArgsOf, OperationId } from '@platform/client/browser';
export type { DataOf, ArgsOf, OperationId } from '@platform/client/browser';

/** What to tell a person about a failed call: the API's own message, else what went wrong. */
export function errorMessage(error: unknown): string {
  if (error instanceof PlatformError) return error.message;
  if (error instanceof ConnectionError) return 'The platform cannot be reached. Is it running?';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The form field an API validation message is about, among `fields`: messages name their field
 * first (`name is required`, `limit must be ...`) or in parentheses (`Name is required (name)`).
 * Else (`loose`) the first of them the message mentions as a word (`A service with that name
 * exists`). Null when it names none of them: the message then shows above the form only.
 */
export function fieldOf(
  message: string,
  fields: readonly string[],
  { loose = true }: { loose?: boolean } = {},
): string | null {
  const inParens = /\(([\w.[\]]+)\)\s*$/.exec(message)?.[1];
  const candidates = [inParens, /^([\w.[\]]+)/.exec(message)?.[1]].filter(Boolean) as string[];
  for (const candidate of candidates) {
    const path = candidate.replace(/^body\./, '');
    // A field named by its whole path (`config.port`), else by its first segment (`config`).
    const whole = fields.find((f) => f.toLowerCase() === path.toLowerCase());
    if (whole) return whole;
    const top = path.split(/[.[]/)[0];
    const match = fields.find((f) => f.toLowerCase() === top.toLowerCase());
    if (match) return match;
  }
  if (!loose) return null;
  const words = new Set(message.toLowerCase().split(/\W+/));
  return fields.find((f) => words.has(f.toLowerCase())) ?? null;
}

/** What an operation takes as its JSON body: forms build it from their fields. */
export type BodyOf<Id extends OperationId> =
  ArgsOf<Id> extends { body?: infer B } ? NonNullable<B> : never;

/**
 * A request the typed client cannot make (a file as the body, a stream as the answer), on this
 * origin: the answer when it is a 2xx, else the API's envelope thrown as PlatformError (or what
 * happened, without one); a network failure is ConnectionError, an abort stays an AbortError.
 */
export async function platformFetch(path: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ConnectionError('the platform', error);
  }
  if (response.ok) return response;
  const envelope = (await response.json().catch(() => null)) as {
    error?: { code: string; message: string };
  } | null;
  throw new PlatformError(
    envelope?.error?.code ?? 'BAD_GATEWAY',
    envelope?.error?.message ?? `${path} answered HTTP ${response.status}`,
    response.status,
  );
}
