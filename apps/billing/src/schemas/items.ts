import {
  Instant,
  IsoTimestamp,
  Nullable,
  PagedQuery,
  StampsAt,
  Type,
  type Static,
} from '@platform/core';

export const PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

const Label = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

/** The fields of an item as a client sends them (the titles name them in validation messages). */
export const ItemFields = {
  name: Type.String({ minLength: 1, maxLength: 200, title: 'name' }),
  amount: Type.Integer({
    minimum: -Number.MAX_SAFE_INTEGER,
    maximum: Number.MAX_SAFE_INTEGER,
    title: 'amount',
    description: 'Integer number of cents (negative for a credit)',
  }),
  currency: Type.String({
    pattern: '^[A-Za-z]{3}$',
    description: 'ISO 4217 code; the configured currency by default',
  }),
  provider: Nullable(Label('Who bills it, e.g. openai')),
  providerRef: Nullable(Label("The provider's id of the charge; unique per provider")),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 50 }),
  description: Nullable(Type.String({ maxLength: 2000 })),
  recurring: Type.Boolean(),
  period: Nullable(Type.Enum([...PERIODS], { description: 'Required when recurring' })),
  date: Instant('When it was spent; now by default'),
  category: Nullable(Label('Category name')),
  service: Nullable(Label('The platform service it is for')),
  stageApp: Nullable(Label('The sandbox app it is for')),
  author: Nullable(Label('Who spent it')),
};

const F = ItemFields;
export const ItemInputSchema = Type.Object({
  name: F.name,
  amount: F.amount,
  currency: Type.Optional(F.currency),
  provider: Type.Optional(F.provider),
  providerRef: Type.Optional(F.providerRef),
  tags: Type.Optional(F.tags),
  description: Type.Optional(F.description),
  recurring: Type.Optional(F.recurring),
  period: Type.Optional(F.period),
  date: Type.Optional(F.date),
  category: Type.Optional(F.category),
  service: Type.Optional(F.service),
  stageApp: Type.Optional(F.stageApp),
  author: Type.Optional(F.author),
});
export type ItemInput = Static<typeof ItemInputSchema>;
export const ItemUpdateSchema = Type.Partial(ItemInputSchema);
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
  ...StampsAt,
});
export type Item = Static<typeof ItemSchema>;

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
export type ItemFilterParams = Static<Type.TObject<typeof ItemFilterQuery>>;

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
