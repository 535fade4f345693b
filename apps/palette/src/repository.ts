import { sql, type Generated, type Kysely, type Selectable } from '@platform/db';

interface Named {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  created: Generated<Date>;
  updated: Generated<Date>;
}

export interface TokensTable extends Named {
  category: string;
  value_default: string;
  value_dark: string | null;
  css_variable: string;
  tailwind_key: string;
  group: string | null;
}

export interface Prop {
  name: string;
  type: string;
  required: boolean;
  default: string | null;
  description: string | null;
}
export interface Variant {
  name: string;
  description: string | null;
}
export interface Example {
  name: string;
  code: string;
  description: string | null;
}
export interface Step {
  title: string;
  description: string | null;
  component: string | null;
}

export interface ComponentsTable extends Named {
  category: string | null;
  status: string;
  props: Prop[];
  variants: Variant[];
  examples: Example[];
}
export interface PatternsTable extends Named {
  category: string | null;
  steps: Step[];
}
export interface StandardsTable extends Named {
  category: string | null;
  guidelines: string[];
}
export interface RulesTable extends Named {
  category: string | null;
  severity: string;
  wcag: string | null;
  level: string | null;
}

interface Link {
  seq: Generated<number>;
}

export interface PaletteDatabase {
  tokens: TokensTable;
  components: ComponentsTable;
  patterns: PatternsTable;
  standards: StandardsTable;
  rules: RulesTable;
  component_tokens: Link & { component_id: string; token_id: string };
  pattern_components: Link & { pattern_id: string; component_id: string };
  rule_components: Link & { rule_id: string; component_id: string };
}

export type PaletteDb = Kysely<PaletteDatabase>;
export type TokenRow = Selectable<TokensTable>;
export type ComponentRow = Selectable<ComponentsTable>;
export type PatternRow = Selectable<PatternsTable>;
export type StandardRow = Selectable<StandardsTable>;
export type RuleRow = Selectable<RulesTable>;

/** The service's Postgres schema (raw SQL names its tables in full). */
export const SCHEMA = 'palette';

/** jsonb parameters go in as text: both pg and PGlite cast it. */
export const jsonb = <T>(value: T) => JSON.stringify(value) as unknown as T;

export type Table = 'tokens' | 'components' | 'patterns' | 'standards' | 'rules';

/** A list filtered on the text columns given (exact), and on a tag, by name. */
export function listNamed<T extends Table>(
  db: PaletteDb,
  table: T,
  filter: Record<string, string | undefined>,
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom(table as 'tokens').selectAll();
  for (const [column, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    query =
      column === 'tag'
        ? query.where(sql<boolean>`tags @> ${jsonb([value])}::jsonb`)
        : query.where(sql.ref(column), '=', value);
  }
  return query
    .orderBy(sql`lower(name)`)
    .limit(page.limit)
    .offset(page.offset)
    .execute() as unknown as Promise<Selectable<PaletteDatabase[T]>[]>;
}

/** The ids a record is linked to, in the order linked. */
export async function linkedIds(
  db: PaletteDb,
  link: 'component_tokens' | 'pattern_components' | 'rule_components',
  id: string,
): Promise<string[]> {
  const [fromColumn, toColumn] = {
    component_tokens: ['component_id', 'token_id'],
    pattern_components: ['pattern_id', 'component_id'],
    rule_components: ['rule_id', 'component_id'],
  }[link];
  const rows = await db
    .selectFrom(link as 'rule_components')
    .select(sql<string>`${sql.ref(toColumn)}`.as('id'))
    .where(sql.ref(fromColumn), '=', id)
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.id);
}

/** Replaces the links of a record, keeping the given order. */
export async function setLinks(
  db: PaletteDb,
  link: 'component_tokens' | 'pattern_components' | 'rule_components',
  columns: [string, string],
  id: string,
  targets: string[],
) {
  await db
    .deleteFrom(link as 'rule_components')
    .where(sql.ref(columns[0]), '=', id)
    .execute();
  if (targets.length > 0)
    await db
      .insertInto(link as 'rule_components')
      .values(targets.map((t) => ({ [columns[0]]: id, [columns[1]]: t }) as never))
      .execute();
}
