import {
  badRequest,
  Name,
  Nullable,
  PagedQuery,
  StampsAt,
  stampsAt,
  Type,
  type Static,
} from '@platform/core';
import type { SpendSelector } from '../database.js';
import type { CatalogServiceRow, OwnerRuleRow } from '../repositories/owners.js';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const Priority = Type.Integer({
  minimum: 0,
  maximum: 1_000_000,
  description: 'Lower applies first; after the last rule by default',
});
const Description = Nullable(Type.String({ maxLength: 2000 }));

/** The conditions of an owner rule: an item must meet every one given (any case). */
const RuleConditions = {
  provider: Nullable(Text('The item’s provider, e.g. aws or openai')),
  service: Nullable(Text('The item’s raw service, e.g. Amazon RDS')),
  focusColumn: Nullable(
    Type.String({
      pattern: '^[A-Za-z][A-Za-z0-9_]{0,99}$',
      description: 'A FOCUS column of imported items, e.g. ServiceName, SubAccountName, x_Team',
    }),
  ),
  focusValue: Nullable(Text('The value that column must have (with focusColumn)')),
  tag: Nullable(
    Text('A tag `key=value` (or `key:value`; `key` alone: any value): FOCUS Tags or item tags'),
  ),
};

export const OwnerRuleInputSchema = Type.Object({
  target: Text('The catalog service the items resolve to (its id or name, any case)'),
  priority: Type.Optional(Priority),
  ...Type.Partial(Type.Object(RuleConditions)).properties,
  description: Type.Optional(Description),
});
export const OwnerRuleUpdateSchema = Type.Partial(OwnerRuleInputSchema);
export type OwnerRuleUpdate = Static<typeof OwnerRuleUpdateSchema>;

/** A catalog service as billing's snapshot has it. */
export const CatalogServiceRefSchema = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String({ description: 'null: no longer in the catalog snapshot' })),
  system: Nullable(Type.String({ description: 'Its system’s id' })),
  owner: Nullable(Type.String({ description: 'Its owner’s name (a team)' })),
});

export const OwnerRuleSchema = Type.Object({
  id: Type.String(),
  priority: Type.Integer(),
  ...RuleConditions,
  target: CatalogServiceRefSchema,
  description: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  ...StampsAt,
});

export const OwnerRuleListQuery = PagedQuery({
  target: Type.Optional(Type.String({ description: 'Only rules to this catalog service' })),
  provider: Type.Optional(Type.String({ description: 'Only rules on this provider' })),
});

export const RuleParams = Type.Object({ id: Type.String({ description: 'Rule id' }) });

/** A catalog service of the snapshot as the API shows it; `id` alone when it is gone. */
export const toServiceRef = (id: string, row: CatalogServiceRow | undefined) => ({
  id,
  name: row?.name ?? null,
  system: row?.system ?? null,
  owner: row?.owner ?? null,
});

/** `key=value` / `key:value` / `key` as a rule stores it. */
export function splitTag(tag: string | null | undefined) {
  if (tag == null) return { tag_key: tag, tag_value: tag };
  const at = tag.includes('=') ? tag.indexOf('=') : tag.indexOf(':');
  if (at === 0) throw badRequest(`tag ${JSON.stringify(tag)} has no key before its separator`);
  return at < 0
    ? { tag_key: tag, tag_value: null }
    : { tag_key: tag.slice(0, at), tag_value: tag.slice(at + 1) || null };
}

/** The condition columns of the fields sent (undefined: left alone, null: cleared). */
export const conditionColumns = (input: OwnerRuleUpdate) => ({
  provider: input.provider,
  service: input.service,
  focus_column: input.focusColumn,
  focus_value: input.focusValue,
  ...(input.tag === undefined ? {} : splitTag(input.tag)),
});

/** The condition columns of a new rule (absent ones null). */
export const newConditions = (input: OwnerRuleUpdate) => {
  const { tag_key = null, tag_value = null } = splitTag(input.tag ?? null);
  return {
    provider: input.provider ?? null,
    service: input.service ?? null,
    focus_column: input.focusColumn ?? null,
    focus_value: input.focusValue ?? null,
    tag_key,
    tag_value,
  };
};

/** 400 unless a rule has a condition, and a FOCUS column comes with its value. */
export function checkConditions(rule: {
  provider: string | null;
  service: string | null;
  focus_column: string | null;
  focus_value: string | null;
  tag_key: string | null;
}) {
  if (!rule.provider && !rule.service && !rule.focus_column && !rule.tag_key)
    throw badRequest('A rule needs a condition: provider, service, focusColumn or tag');
  if (!rule.focus_column !== !rule.focus_value)
    throw badRequest('focusColumn and focusValue go together: give both or neither');
}

export const toOwnerRule = (row: OwnerRuleRow, target: CatalogServiceRow | undefined) => ({
  id: row.id,
  priority: row.priority,
  provider: row.provider,
  service: row.service,
  focusColumn: row.focus_column,
  focusValue: row.focus_value,
  tag: row.tag_key === null ? null : `${row.tag_key}${row.tag_value ? `=${row.tag_value}` : ''}`,
  target: toServiceRef(row.target, target),
  description: row.description,
  createdBy: row.created_by,
  ...stampsAt(row.created_at, row.updated_at),
});

/** What an allocation rule's selector takes: every field given must hold (any case). */
export const SelectorSchema = Type.Object(
  {
    catalogService: Type.Optional(Text('Items resolved to this catalog service (id or name)')),
    provider: Type.Optional(Text('Items of this provider')),
    service: Type.Optional(Text('Items with this raw service')),
    tag: Type.Optional(Text('Items with this tag (an item tag, e.g. team:db)')),
  },
  { additionalProperties: false },
);

const Percent = Type.Number({ minimum: 0.0001, maximum: 100, description: 'A percentage above 0' });

export const AllocationInputSchema = Type.Object({
  name: Name('allocation name'),
  priority: Type.Optional(Priority),
  selector: SelectorSchema,
  method: Type.Enum(['fixed', 'proportional'] as const, {
    description: 'fixed: by shares; proportional: by the spend of the basis per catalog service',
  }),
  shares: Type.Optional(
    Type.Array(Type.Object({ service: Text('A catalog service (id or name)'), percent: Percent }), {
      maxItems: 100,
      description: 'fixed: percentages adding up to 100',
    }),
  ),
  basis: Type.Optional(Nullable(SelectorSchema)),
  description: Type.Optional(Description),
});
export type AllocationInput = Static<typeof AllocationInputSchema>;
export const AllocationUpdateSchema = Type.Partial(AllocationInputSchema);

const SelectorShown = Type.Object({
  catalogService: Type.Optional(Type.String({ description: 'A catalog service id' })),
  provider: Type.Optional(Type.String()),
  service: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});

export const AllocationSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  priority: Type.Integer(),
  selector: SelectorShown,
  method: Type.String(),
  shares: Type.Array(Type.Object({ service: CatalogServiceRefSchema, percent: Type.Number() })),
  basis: Nullable(SelectorShown),
  description: Nullable(Type.String()),
  createdBy: Nullable(Type.String()),
  ...StampsAt,
});

export const AllocationListQuery = PagedQuery({
  catalogService: Type.Optional(
    Type.String({ description: 'Only rules whose selector or shares name this catalog service' }),
  ),
});

export const CatalogSnapshotSchema = Type.Object({
  fetchedAt: Nullable(Type.String({ description: 'When the snapshot was last fetched' })),
  attemptedAt: Nullable(Type.String({ description: 'The last attempt' })),
  services: Type.Integer({ description: 'Catalog services in the snapshot' }),
  stale: Type.Boolean({
    description: 'The last attempt failed: items resolve by the snapshot of fetchedAt',
  }),
  error: Nullable(Type.String()),
});

export type Selector = SpendSelector;
