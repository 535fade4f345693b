import {
  badRequest,
  Instant,
  IsoTimestamp,
  newId,
  Nullable,
  PagedQuery,
  parseInstant,
  parseRange,
  StampsAt,
  stampsAt,
  Type,
  type Static,
  UpdateOf,
  TagsSchema,
  unique,
  type Ownership,
} from '@platform/core';
import type { ItemChanges, ItemRow, NewItem } from '../database.js';
import type { ItemFilter } from '../repositories/items.js';

const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
export const Currency = (description: string) =>
  Type.String({ pattern: '^[A-Za-z]{3}$', description });
/** A day as YYYY-MM-DD. */
export const Day = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

/** A resource's team as a create or an update names it: a catalog owner the caller is in. */
export const Team = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 100,
    title: 'team',
    description:
      'A team (a catalog owner) whose members may change it too; you must be in it (admins: any)',
  }),
);

/** Who owns a resource, as the API shows it (read-only). */
export const Owned = {
  createdBy: Nullable(
    Type.String({
      description:
        'Who made it: an email, or key:<name> for a team key; null: no one (admins only)',
    }),
  ),
  team: Nullable(Type.String({ description: 'The team whose members may change it too' })),
};

/** An item as a client sends it: name and amount, the rest optional (titles name fields in errors). */
export const ItemInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, title: 'name' }),
  amount: Type.Integer({
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
    title: 'amount',
    description: 'Integer number of cents (negative for a credit)',
  }),
  ...Type.Partial(
    Type.Object({
      currency: Currency('ISO 4217 code; the configured currency by default'),
      provider: Nullable(Label('Who bills it, e.g. openai')),
      providerRef: Nullable(Label("The provider's id of the charge; unique per provider")),
      tags: TagsSchema,
      description: Nullable(Type.String({ maxLength: 2000 })),
      recurring: Type.Boolean(),
      period: Nullable(Type.Enum([...PERIODS], { description: 'Required when recurring' })),
      date: Instant('When it was spent; now by default'),
      category: Nullable(Label('Category name')),
      service: Nullable(Label('The platform service it is for')),
      stageApp: Nullable(Label('The sandbox app it is for')),
      author: Nullable(Label('Who spent it')),
      team: Team,
    }),
  ).properties,
});
export type ItemInput = Static<typeof ItemInputSchema>;
export const ItemUpdateSchema = UpdateOf(ItemInputSchema);
export type ItemUpdate = Static<typeof ItemUpdateSchema>;

export const ItemSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  amount: Type.Integer({ description: 'Cents' }),
  currency: Type.String(),
  provider: Nullable(Type.String()),
  providerRef: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  recurring: Type.Boolean(),
  period: Nullable(Type.String()),
  date: IsoTimestamp,
  category: Nullable(Type.String()),
  service: Nullable(Type.String()),
  stageApp: Nullable(Type.String()),
  author: Nullable(Type.String()),
  exactAmount: Nullable(
    Type.String({
      description:
        'Synced items: the exact amount in cents as decimal text (amount is it rounded half away from zero); null otherwise, and once amount is changed',
    }),
  ),
  dimensions: Type.Record(Type.String(), Type.Unknown(), {
    description: 'FOCUS imports: the FinOps columns no other field holds, by their FOCUS names',
  }),
  catalogService: Nullable(
    Type.String({
      description:
        'The catalog service id it resolves to (owner rules, else its service as a catalog id or name); null: unmatched',
    }),
  ),
  catalogSystem: Nullable(Type.String({ description: "That service's system id" })),
  catalogOwner: Nullable(Type.String({ description: "That service's owner (a team's name)" })),
  ...Owned,
  ...StampsAt,
});
export type Item = Static<typeof ItemSchema>;

/** An item row as the API shows it (the response schema leaves the columns' own names out). */
export const toItem = (row: ItemRow): Item => ({
  ...row,
  amount: Number(row.amount),
  providerRef: row.provider_ref,
  date: row.date.toISOString(),
  stageApp: row.stage_app,
  exactAmount: row.exact_amount === null ? null : String(row.exact_amount),
  createdBy: row.created_by,
  team: row.team,
  catalogService: row.catalog_service,
  catalogSystem: row.catalog_system,
  catalogOwner: row.catalog_owner,
  ...stampsAt(row.created_at, row.updated_at),
});

/** The query filters shared by item lists and reports. */
export const ItemFilterQuery = {
  category: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  service: Type.Optional(Type.String()),
  stageApp: Type.Optional(Type.String()),
  author: Type.Optional(Type.String()),
  recurring: Type.Optional(Type.Boolean()),
  tags: Type.Optional(Type.String({ description: 'Comma-separated: items with all of them' })),
};

type ItemQuery = Static<Type.TObject<typeof ItemFilterQuery>> & { from?: string; to?: string };

/** The item filters of a query: `tags` is a comma-separated list, `from` and `to` are instants. */
export const toItemFilter = ({ from, to, tags, ...filters }: ItemQuery): ItemFilter => ({
  ...filters,
  ...parseRange({ from, to }),
  tags: tags
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean),
});

export const ItemListQuery = PagedQuery({
  ...ItemFilterQuery,
  from: Type.Optional(Instant('Items on or after')),
  to: Type.Optional(Instant('Items on or before')),
});

export const ItemParams = Type.Object({ id: Type.String({ description: 'Item id' }) });

export const ProviderRefQuery = Type.Object({
  provider: Type.String({ title: 'provider' }),
  providerRef: Type.String({ title: 'providerRef' }),
});

export const SearchQuery = Type.Object({
  q: Type.String({ maxLength: 200, title: 'the search term' }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'At most (1-1000)' }),
});

export function checkPeriod(recurring: boolean, period: string | null) {
  if (recurring && !period) throw badRequest('period is required when recurring is true');
}

/**
 * The columns of the fields sent, for a create and an update (undefined ones are left alone);
 * `team` is the handler's, once the policy has checked it (ownershipFor).
 */
export const columnsOf = (input: ItemUpdate): ItemChanges => ({
  name: input.name,
  amount: input.amount,
  // A new amount replaces the exact one it was rounded from.
  exact_amount: input.amount === undefined ? undefined : null,
  currency: input.currency?.toUpperCase(),
  provider: input.provider,
  provider_ref: input.providerRef,
  tags: input.tags && unique(input.tags),
  description: input.description,
  recurring: input.recurring,
  period: input.period,
  date: input.date === undefined ? undefined : parseInstant(input.date, 'date', 'from'),
  category: input.category,
  service: input.service,
  stage_app: input.stageApp,
  author: input.author,
});

/**
 * Columns of a new item, owned by `owner`: the defaults are the configured currency, now (and
 * not recurring).
 */
export function newItem(input: ItemInput, defaultCurrency: string, owner: Ownership): NewItem {
  checkPeriod(input.recurring ?? false, input.period ?? null);
  const { currency = defaultCurrency, date = new Date(), ...columns } = columnsOf(input);
  const { name, amount } = input;
  const owned = { created_by: owner.createdBy, team: owner.team };
  return { ...columns, id: newId(12), name, amount, currency, date, ...owned };
}
