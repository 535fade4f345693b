import {
  badRequest,
  Name,
  Nullable,
  PagedQuery,
  RefSchema,
  Stamps,
  Type,
  UpdateOf,
  type Static,
} from '@platform/core';
import type { ComponentStatus } from '../database.js';
import type { ComponentWithTokens } from '../repositories/components.js';
import { CategoryInput, OwnershipShown, Refs, Tags, TeamInput, Text, toRecord } from './common.js';
import { TokenSchema } from './tokens.js';

export const STATUSES = [
  'draft',
  'experimental',
  'beta',
  'stable',
  'deprecated',
] as const satisfies readonly ComponentStatus[];
export type Status = (typeof STATUSES)[number];

export const PropInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'prop name' }),
  type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      default: 'string',
      description: 'e.g. string, boolean, "sm" | "md"',
    }),
  ),
  required: Type.Optional(Type.Boolean({ default: false })),
  default: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  description: Type.Optional(Nullable(Text())),
});
export type PropInput = Static<typeof PropInputSchema>;

export const VariantInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'variant name' }),
  description: Type.Optional(Nullable(Text())),
});
export type VariantInput = Static<typeof VariantInputSchema>;

export const ExampleInputSchema = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'example name' }),
  code: Type.String({ minLength: 1, maxLength: 20000, title: 'code' }),
  description: Type.Optional(Nullable(Text())),
});

export const ComponentInputSchema = Type.Object({
  name: Name('component name'),
  status: Type.Optional(Type.Enum([...STATUSES], { default: 'draft' })),
  category: Type.Optional(CategoryInput),
  description: Type.Optional(Nullable(Text())),
  props: Type.Optional(Type.Array(PropInputSchema, { maxItems: 200 })),
  variants: Type.Optional(Type.Array(VariantInputSchema, { maxItems: 200 })),
  tokens: Type.Optional(Refs(500, 'Token ids or names')),
  tags: Type.Optional(Tags),
  team: TeamInput,
});

export const ComponentUpdateSchema = UpdateOf(ComponentInputSchema);

/** BAD_REQUEST when two items of a list (props, variants) share a name (case-insensitively). */
export function distinctNames(list: ReadonlyArray<{ name: string }> | undefined, what: string) {
  const seen = new Set<string>();
  for (const { name } of list ?? []) {
    if (seen.has(name.toLowerCase())) throw badRequest(`Two ${what} are named ${name}`);
    seen.add(name.toLowerCase());
  }
}

const PropSchema = Type.Object({
  name: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  default: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
const VariantSchema = Type.Object({ name: Type.String(), description: Nullable(Type.String()) });
const ExampleSchema = Type.Object({
  name: Type.String(),
  code: Type.String(),
  description: Nullable(Type.String()),
});

export const ComponentSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Enum([...STATUSES]),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  props: Type.Array(PropSchema),
  variants: Type.Array(VariantSchema),
  examples: Type.Array(ExampleSchema),
  tokens: Type.Array(Type.String(), { description: 'Ids of the tokens it uses' }),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...Stamps,
});
export type Component = Static<typeof ComponentSchema>;

/** The component as shown, with the ids of the tokens it uses. */
export const toComponent = (row: ComponentWithTokens): Component => toRecord(row);

export const ComponentResolvedSchema = Type.Object({
  ...ComponentSchema.properties,
  resolved: Type.Object({
    tokens: Type.Array(TokenSchema),
    patterns: Type.Array(RefSchema),
    rules: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        severity: Type.String(),
        wcag: Nullable(Type.String()),
        level: Nullable(Type.String()),
      }),
    ),
  }),
});

/** A linked component as a pattern or a rule shows it. */
export const ComponentRefSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Enum([...STATUSES]),
});
export type ComponentRef = Static<typeof ComponentRefSchema>;

export const ComponentListQuery = PagedQuery({
  status: Type.Optional(Type.Enum([...STATUSES])),
  category: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});
