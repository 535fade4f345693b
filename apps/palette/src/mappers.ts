import { badRequest, stamps, unique } from '@platform/core';
import type { Columns, TokenRow } from './database.js';

import {
  deriveCssVariable,
  deriveTailwindKey,
  isCssColor,
  type Category,
} from './domain/tokens.js';
import type { Token, TokenUpdate } from './schemas/tokens.js';

/** Rows to the API shape, and token input to columns; shared by several route files. */

/** A record as the API shows it: its columns as they are, the stamps as ISO text. */
export const toRecord = <R extends { created: Date; updated: Date }>({
  created,
  updated,
  ...columns
}: R) => ({ ...columns, ...stamps(created, updated) });

export const toToken = (row: TokenRow): Token => ({
  id: row.id,
  name: row.name,
  category: row.category as Category,
  value: { default: row.value_default, dark: row.value_dark },
  cssVariable: row.css_variable,
  tailwindKey: row.tailwind_key,
  group: row.group,
  description: row.description,
  tags: row.tags,
  ...stamps(row.created, row.updated),
});

/**
 * The columns a create (no `current`) or an update sets. cssVariable and tailwindKey are derived
 * from the name unless given; a rename re-derives only what was derived. Colors must parse.
 */
export function tokenColumns(input: TokenUpdate, current?: TokenRow): Partial<Columns<'tokens'>> {
  const category = (input.category ?? current?.category) as Category;
  const name = input.name ?? current?.name ?? '';
  const value = typeof input.value === 'string' ? { default: input.value } : input.value;
  const dark = input.dark !== undefined ? input.dark : value?.dark;
  const wasDerived = (column: 'css_variable' | 'tailwind_key') =>
    current !== undefined &&
    current[column] ===
      (column === 'css_variable'
        ? deriveCssVariable(current.name)
        : deriveTailwindKey(current.name, current.category as Category));
  const renamed = input.name !== undefined;
  const out: Partial<Columns<'tokens'>> = {
    ...(renamed ? { name } : {}),
    ...(input.category === undefined ? {} : { category }),
    ...(value === undefined ? {} : { value_default: value.default }),
    ...(dark === undefined ? {} : { value_dark: dark }),
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
  if (category === 'color') {
    const checked = [
      ['value', out.value_default ?? current?.value_default],
      ['dark', out.value_dark === undefined ? current?.value_dark : out.value_dark],
    ] as const;
    for (const [field, v] of checked)
      if (v !== undefined && v !== null && !isCssColor(v))
        throw badRequest(`${field} is not a CSS color: ${v}`);
  }
  return out;
}
