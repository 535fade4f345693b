import { sql, type RawBuilder } from 'kysely';

/** Who sees which rows of a private list (libs/core's `visibleTo`). */
export interface Visible {
  creators: readonly string[];
  teams: readonly string[];
}

const lowered = (values: readonly string[]) =>
  sql.join(values.length > 0 ? values.map((v) => v.toLowerCase()) : ['']);

/**
 * The condition of a private list: rows whose `created_by` is one of `creators` or whose `team`
 * is one of `teams`, both without case (`table` qualifies the columns in a join):
 * `.where(ownedBy(visible))`.
 */
export function ownedBy(visible: Visible, table?: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return sql<boolean>`(lower(${column('created_by')}) in (${lowered(visible.creators)}) or lower(${column('team')}) in (${lowered(visible.teams)}))`;
}
