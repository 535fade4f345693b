import { badRequest, conflict } from '@platform/core';
import { isForeignKeyViolation, sql } from '@platform/db';
import type { CatalogDb } from '../database.js';
import { selectNamed } from './named.js';

/**
 * Systems and owners: the records that services and APIs point at (a system at its owner, an
 * owner at its parent group). Their own statements are in systems.ts and owners.ts.
 */
export type GroupTable = 'systems' | 'owners' | 'domains';

/**
 * The system or owner a field names (BAD_REQUEST `Unknown <field>: x` when there is none);
 * undefined (not sent) and null (cleared) pass through.
 */
export async function linkedGroup<T extends GroupTable>(
  db: CatalogDb,
  table: T,
  field: string,
  idOrName: string | null | undefined,
) {
  if (idOrName == null) return idOrName;
  const row = await selectNamed(db, table, idOrName);
  if (!row) throw badRequest(`Unknown ${field}: ${idOrName}`);
  return row;
}

/** The id to store for a link: undefined keeps it, null clears it. */
export const linkId = (row: { id: string } | null | undefined) =>
  row === undefined ? undefined : (row?.id ?? null);

/** The column saying what a row of a union of dependents is (`services`, `APIs` ...). */
export const dependentKind = (label: string) => sql<string>`${label}::text`.as('what');

/** What still points at a record, by what it is (in `order`) and then by name. */
export interface Dependents {
  what: string;
  names: string[];
}

/** Rows of dependents grouped by what they are, in `order`, each group by name. */
export function byKind(
  rows: ReadonlyArray<{ what: string; name: string }>,
  order: readonly string[],
): Dependents[] {
  const byWhat = new Map<string, string[]>();
  for (const row of rows) byWhat.set(row.what, [...(byWhat.get(row.what) ?? []), row.name]);
  const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
  return order
    .filter((label) => byWhat.has(label))
    .map((label) => ({ what: label, names: byWhat.get(label)!.sort(byName) }));
}

/**
 * Runs the delete of a system or an owner (`label`: `System web`) unless something points at it:
 * 409 naming the dependents, or, when something came to point at it between the check and the
 * delete (the foreign key refuses), 409 saying that it is still in use.
 */
export async function deleteUnlessUsed(
  label: string,
  dependents: Dependents[],
  remove: () => Promise<void>,
) {
  if (dependents.length > 0)
    throw conflict(
      `${label} still has ${dependents.map((d) => `${d.what}: ${d.names.join(', ')}`).join('; ')}`,
    );
  try {
    await remove();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw conflict(`${label} is still in use`);
    throw error;
  }
}
