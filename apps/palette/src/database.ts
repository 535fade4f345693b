import type { Generated, Insertable, Kysely, Selectable } from '@platform/db';
import type { Category } from './domain/tokens.js';

/** The tables of the `palette` schema, as the migrations make them. */
export interface PaletteDatabase {
  tokens: TokensTable;
  components: ComponentsTable;
  patterns: PatternsTable;
  standards: StandardsTable;
  rules: RulesTable;
  component_tokens: LinkTable & { component_id: string; token_id: string };
  pattern_components: LinkTable & { pattern_id: string; component_id: string };
  rule_components: LinkTable & { rule_id: string; component_id: string };
}

/** The columns every kind of record has. */
interface NamedTable {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  created: Generated<Date>;
  updated: Generated<Date>;
  /**
   * Who made it (an email, `key:<name>` for a team key) and the team (a catalog owner) that owns
   * it with its creator (issue 31); null on records made before (admins only).
   */
  created_by: string | null;
  team: string | null;
}

export interface TokensTable extends NamedTable {
  category: Category;
  value_default: string;
  value_dark: string | null;
  /** The token the default value is an alias of (its value then holds the alias text). */
  value_default_ref: string | null;
  value_dark_ref: string | null;
  css_variable: string;
  tailwind_key: string;
  group: string | null;
}

/** Where a component is in its life. */
export type ComponentStatus = 'draft' | 'experimental' | 'beta' | 'stable' | 'deprecated';

export interface ComponentsTable extends NamedTable {
  category: string | null;
  status: ComponentStatus;
  props: Prop[];
  variants: Variant[];
  examples: Example[];
}

export interface PatternsTable extends NamedTable {
  category: string | null;
  steps: Step[];
}

export interface StandardsTable extends NamedTable {
  category: string | null;
  guidelines: string[];
}

/** How much a breach of an accessibility rule hurts, and the WCAG level of its criterion. */
export type RuleSeverity = 'minor' | 'moderate' | 'serious' | 'critical';
export type RuleLevel = 'A' | 'AA' | 'AAA';

export interface RulesTable extends NamedTable {
  category: string | null;
  severity: RuleSeverity;
  wcag: string | null;
  level: RuleLevel | null;
}

/** A link between two records; `seq` keeps the order they were linked in. */
interface LinkTable {
  seq: Generated<number>;
}

// Items of the jsonb lists.
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
  /** Id of the component the step uses. */
  component: string | null;
}

export type PaletteDb = Kysely<PaletteDatabase>;
/** The tables of the records that have a name (search and ownership look through them all). */
export type RecordTable = 'tokens' | 'components' | 'patterns' | 'standards' | 'rules';
/** The columns a create sets: the database makes the id and the stamps. */
export type New<Table> = Omit<Insertable<Table>, 'id' | 'created' | 'updated'>;
export type TokenRow = Selectable<TokensTable>;
export type ComponentRow = Selectable<ComponentsTable>;
export type PatternRow = Selectable<PatternsTable>;
export type StandardRow = Selectable<StandardsTable>;
export type RuleRow = Selectable<RulesTable>;
