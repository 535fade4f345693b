import {
  Nullable,
  PagedQuery,
  RefSchema,
  Stamps,
  stamps,
  Type,
  type Static,
  UpdateOf,
} from '@platform/core';
import type { TokenRow } from '../database.js';
import { CATEGORY_NAMES } from '../domain/tokens.js';
import { OwnershipShown, Tags, TeamInput, Text } from './common.js';

const Value = Type.String({
  minLength: 1,
  maxLength: 500,
  description:
    'A value of the category (checked), or an alias of another token of the same type: {group.name}',
});

const CssVariable = Type.String({
  pattern: '^--[A-Za-z0-9_-]+$',
  maxLength: 120,
  description: 'Custom property name, e.g. --color-primary; derived from the name when absent',
});

const TailwindKey = Type.String({
  pattern: '^[A-Za-z0-9_-]+$',
  maxLength: 100,
  description: 'Key in the Tailwind theme section; derived from the name when absent',
});

const Group = Type.String({
  pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
  maxLength: 200,
  description: 'Dotted group path, e.g. brand.primary (the JSON export nests by it)',
});

/** Stricter than a record name: it is a key in the JSON export. */
const TokenName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
  title: 'token name',
  description: 'Letters, digits, - and _; unique case-insensitively',
});

export const TokenInputSchema = Type.Object({
  name: TokenName,
  category: Type.Enum(CATEGORY_NAMES, { title: 'category' }),
  value: Type.Union(
    [Value, Type.Object({ default: Value, dark: Type.Optional(Nullable(Value)) })],
    { title: 'value', description: 'The default (light) value, or { default, dark }' },
  ),
  dark: Type.Optional(Nullable(Value)),
  cssVariable: Type.Optional(CssVariable),
  tailwindKey: Type.Optional(TailwindKey),
  group: Type.Optional(Nullable(Group)),
  description: Type.Optional(Nullable(Text())),
  tags: Type.Optional(Tags),
  team: TeamInput,
});

export type TokenInput = Static<typeof TokenInputSchema>;

export const TokenUpdateSchema = UpdateOf(TokenInputSchema);
export type TokenUpdate = Static<typeof TokenUpdateSchema>;

export const TokenSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Type.Enum(CATEGORY_NAMES),
  value: Type.Object({ default: Type.String(), dark: Nullable(Type.String()) }),
  aliases: Type.Object(
    { default: Nullable(RefSchema), dark: Nullable(RefSchema) },
    { description: 'The token each value is an alias of, if it is one' },
  ),
  modes: Type.Record(Type.String(), Type.String(), {
    description:
      'Values in the modes other than light and dark (<modifier>:<context> -> value; set by an import)',
  }),
  path: Nullable(Type.String({ description: 'The DTCG path of an imported token' })),
  cssVariable: Type.String(),
  tailwindKey: Type.String(),
  group: Nullable(Type.String()),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  ...OwnershipShown,
  ...Stamps,
});
export type Token = Static<typeof TokenSchema>;

/** A token's path in the DTCG export, and in aliases: `group.name`, or the name. */
export const tokenPath = (t: { group: string | null; name: string; path?: string | null }) =>
  t.path ?? (t.group ? `${t.group}.${t.name}` : t.name);

/**
 * A token as the API shows it. An alias shows the current path of the token it refers to (found
 * in `targets`), so that a rename of that token shows at once; without it, the text as sent.
 */
export function toToken(
  row: TokenRow,
  targets = new Map<string, TokenRow>(),
  modes: Record<string, string> = {},
): Token {
  const alias = (ref: string | null) => {
    const target = ref === null ? undefined : targets.get(ref);
    return target ? { id: target.id, name: target.name, path: tokenPath(target) } : null;
  };
  const aliasDefault = alias(row.value_default_ref);
  const aliasDark = alias(row.value_dark_ref);
  return {
    id: row.id,
    name: row.name,
    category: row.category,
    value: {
      default: aliasDefault ? `{${aliasDefault.path}}` : row.value_default,
      dark: aliasDark ? `{${aliasDark.path}}` : row.value_dark,
    },
    aliases: {
      default: aliasDefault && { id: aliasDefault.id, name: aliasDefault.name },
      dark: aliasDark && { id: aliasDark.id, name: aliasDark.name },
    },
    modes,
    path: row.path,
    cssVariable: row.css_variable,
    tailwindKey: row.tailwind_key,
    group: row.group,
    description: row.description,
    tags: row.tags,
    createdBy: row.created_by,
    team: row.team,
    ...stamps(row.created, row.updated),
  };
}

export const TokenWithUsageSchema = Type.Object({
  ...TokenSchema.properties,
  usage: Type.Object({
    components: Type.Array(RefSchema, { description: 'Components that use the token' }),
    patterns: Type.Array(RefSchema, { description: 'Patterns with such a component' }),
    tokens: Type.Array(RefSchema, { description: 'Tokens whose value is an alias of it' }),
  }),
});

export const TokenListQuery = PagedQuery({
  category: Type.Optional(Type.Enum(CATEGORY_NAMES)),
  group: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});

export const ContrastQuery = Type.Object({
  foreground: Type.String({ title: 'foreground', description: 'Color token (id or name)' }),
  background: Type.String({ title: 'background', description: 'Color token (id or name)' }),
  backdrop: Type.Optional(
    Type.String({
      title: 'backdrop',
      description:
        'Color token (id or name) a translucent background is drawn over; white in light mode and black in dark mode when absent',
    }),
  ),
});

const Pass = Type.Object({ normal: Type.Boolean(), large: Type.Boolean() });
const ContrastModeSchema = Type.Object({ ratio: Type.Number(), aa: Pass, aaa: Pass });

export const ContrastSchema = Type.Object({
  foreground: RefSchema,
  background: RefSchema,
  light: ContrastModeSchema,
  dark: ContrastModeSchema,
});
