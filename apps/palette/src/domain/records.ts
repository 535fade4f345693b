import { badRequest } from '@platform/core';

/** The fields that were sent (not undefined): what a partial update changes. */
export const sentFields = <T extends Record<string, unknown>>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;

/** BAD_REQUEST when two items of a list share a name (case-insensitively). */
export function distinctNames(list: ReadonlyArray<{ name: string }> | undefined, what: string) {
  const seen = new Set<string>();
  for (const { name } of list ?? []) {
    if (seen.has(name.toLowerCase())) throw badRequest(`Two ${what} are named ${name}`);
    seen.add(name.toLowerCase());
  }
}
