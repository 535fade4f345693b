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
 * Null when it names none of them: the message then shows above the form.
 */
export function fieldOf(message: string, fields: readonly string[]): string | null {
  const inParens = /\(([\w.[\]]+)\)\s*$/.exec(message)?.[1];
  const candidates = [inParens, /^([\w.[\]]+)/.exec(message)?.[1]].filter(Boolean) as string[];
  for (const candidate of candidates) {
    const top = candidate.replace(/^body\./, '').split(/[.[]/)[0];
    const match = fields.find((f) => f.toLowerCase() === top.toLowerCase());
    if (match) return match;
  }
  const lower = message.toLowerCase();
  return fields.find((f) => new RegExp(`\\b${f.toLowerCase()}\\b`).test(lower)) ?? null;
}

/** What an operation takes as its JSON body: forms build it from their fields. */
export type BodyOf<Id extends OperationId> =
  ArgsOf<Id> extends { body?: infer B } ? NonNullable<B> : never;
