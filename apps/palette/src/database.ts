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
  token_mode_values: TokenModeValuesTable;
  modes: ModesTable;
  modifiers: ModifiersTable;
}

/** A token's value in a mode other than light and dark (`<modifier>:<context>`). */
export interface TokenModeValuesTable {
  token_id: string;
  mode: string;
  /** CSS text, or an alias `{path}` of `value_ref`. */
  value: string;
  value_ref: string | null;
  /** The DTCG `$value` as the file wrote it (JSON text). */
  source: string | null;
}

/** The default context of a modifier an import read (the DTCG export names it so). */
export interface ModifiersTable {
  name: string;
  default_context: string;
}

/** Where a mode's values go in the CSS export. */
export interface ModesTable {
  name: string;
  selector: string;
  media: string | null;
  position: Generated<number>;
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
  /** The DTCG path of an imported token (when it is not `group.name`). */
  path: Generated<string | null>;
  /** The DTCG source of an imported token, JSON text of a TokenSource. */
  source: Generated<string | null>;
}

export interface TokenSource {
  value: unknown;
  dark?: unknown;
  deprecated?: boolean | string;
  extensions?: Record<string, unknown>;
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
export type TokenModeValueRow = Selectable<TokenModeValuesTable>;
export type ModeRow = Selectable<ModesTable>;
export type ComponentRow = Selectable<ComponentsTable>;
export type PatternRow = Selectable<PatternsTable>;
export type StandardRow = Selectable<StandardsTable>;
export type RuleRow = Selectable<RulesTable>;
