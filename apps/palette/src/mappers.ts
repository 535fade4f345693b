import { stamps, unique } from '@platform/core';
import type { Columns, TokenRow } from './database.js';

import {
  deriveCssVariable,
  deriveTailwindKey,
  legacyKebab,
  type Category,
} from './domain/tokens.js';
import type { Token, TokenUpdate } from './schemas/tokens.js';

/** Rows to the API shape, and token input to columns; shared by several route files. */

/** A record as the API shows it: its columns as they are, the stamps as ISO text. */
export const toRecord = <R extends { created: Date; updated: Date; created_by: string | null }>({
  created,
  updated,
  created_by,
  ...columns
}: R) => ({ ...columns, createdBy: created_by, ...stamps(created, updated) });

/** A token's path in the DTCG export, and in aliases: `group.name`, or the name. */
export const tokenPath = (t: { group: string | null; name: string }) =>
  t.group ? `${t.group}.${t.name}` : t.name;

/**
 * A token as the API shows it. An alias shows the current path of the token it refers to (found
 * in `targets`), so that a rename of that token shows at once; without it, the text as sent.
 */
export function toToken(row: TokenRow, targets = new Map<string, TokenRow>()): Token {
  const alias = (ref: string | null) => {
    const target = ref === null ? undefined : targets.get(ref);
    return target ? { id: target.id, name: target.name, path: tokenPath(target) } : null;
  };
  const aliasDefault = alias(row.value_default_ref);
  const aliasDark = alias(row.value_dark_ref);
  return {
    id: row.id,
    name: row.name,
    category: row.category as Category,
    value: {
      default: aliasDefault ? `{${aliasDefault.path}}` : row.value_default,
      dark: aliasDark ? `{${aliasDark.path}}` : row.value_dark,
    },
    aliases: {
      default: aliasDefault && { id: aliasDefault.id, name: aliasDefault.name },
      dark: aliasDark && { id: aliasDark.id, name: aliasDark.name },
    },
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

/**
 * The columns a create (no `current`) or an update sets, values as sent (trimmed) and not yet
 * checked. cssVariable and tailwindKey are derived from the name unless given; a rename
 * re-derives only what was derived (by today's rule or the one before it).
 */
export function tokenColumns(input: TokenUpdate, current?: TokenRow): Partial<Columns<'tokens'>> {
  const category = (input.category ?? current?.category) as Category;
  const name = input.name ?? current?.name ?? '';
  const value = typeof input.value === 'string' ? { default: input.value } : input.value;
  const dark = input.dark !== undefined ? input.dark : value?.dark;
  const wasDerived = (column: 'css_variable' | 'tailwind_key') =>
    current !== undefined &&
    [undefined, legacyKebab].some(
      (words) =>
        current[column] ===
        (column === 'css_variable'
          ? deriveCssVariable(current.name, words)
          : deriveTailwindKey(current.name, current.category as Category, words)),
    );
  const renamed = input.name !== undefined;
  const out: Partial<Columns<'tokens'>> = {
    ...(renamed ? { name } : {}),
    ...(input.category === undefined ? {} : { category }),
    ...(value === undefined ? {} : { value_default: value.default.trim() }),
    ...(dark === undefined ? {} : { value_dark: dark === null ? null : dark.trim() }),
    ...(input.group === undefined ? {} : { group: input.group }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.tags === undefined ? {} : { tags: unique(input.tags) }),
  };
  if (input.cssVariable !== undefined) out.css_variable = input.cssVariable;
  else if (!current || (renamed && wasDerived('css_variable')))
    out.css_variable = deriveCssVariable(name);
  if (input.tailwindKey !== undefined) out.tailwind_key = input.tailwindKey;
  else if (!current || ((renamed || input.category !== undefined) && wasDerived('tailwind_key')))
    out.tailwind_key = deriveTailwindKey(name, category);
  return out;
}
