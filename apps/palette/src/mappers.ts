import { badRequest, stamps } from '@platform/core';
import type { ComponentRow, PatternRow, RuleRow, StandardRow, TokenRow } from './database.js';
import { unique } from './domain/records.js';
import {
  deriveCssVariable,
  deriveTailwindKey,
  isCssColor,
  type Category,
} from './domain/tokens.js';
import type { TokenColumns } from './repositories/tokens.js';
import type { Component, PropInput, Status, VariantInput } from './schemas/components.js';
import type { Pattern } from './schemas/patterns.js';
import type { Level, Rule, Severity } from './schemas/rules.js';
import type { Standard } from './schemas/standards.js';
import type { Token, TokenUpdate } from './schemas/tokens.js';

/** Rows to the API shape, and token input to columns; shared by several route files. */

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
export function tokenColumns(input: TokenUpdate, current?: TokenRow): Partial<TokenColumns> {
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
  const out: Partial<TokenColumns> = {
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

export const toComponent = (row: ComponentRow, tokenIds: string[]): Component => ({
  id: row.id,
  name: row.name,
  status: row.status as Status,
  category: row.category,
  description: row.description,
  props: row.props,
  variants: row.variants,
  examples: row.examples,
  tokens: tokenIds,
  tags: row.tags,
  ...stamps(row.created, row.updated),
});

export const toProp = (p: PropInput) => ({
  name: p.name,
  type: p.type ?? 'string',
  required: p.required ?? false,
  default: p.default ?? null,
  description: p.description ?? null,
});

export const toVariant = (v: VariantInput) => ({
  name: v.name,
  description: v.description ?? null,
});

export const toPattern = (row: PatternRow, componentIds: string[]): Pattern => ({
  id: row.id,
  name: row.name,
  category: row.category,
  description: row.description,
  components: componentIds,
  steps: row.steps,
  tags: row.tags,
  ...stamps(row.created, row.updated),
});

export const toStandard = (row: StandardRow): Standard => ({
  id: row.id,
  name: row.name,
  category: row.category,
  description: row.description,
  guidelines: row.guidelines,
  tags: row.tags,
  ...stamps(row.created, row.updated),
});

export const toRule = (row: RuleRow, componentIds: string[]): Rule => ({
  id: row.id,
  name: row.name,
  category: row.category,
  severity: row.severity as Severity,
  wcag: row.wcag,
  level: row.level as Level | null,
  description: row.description,
  components: componentIds,
  tags: row.tags,
  ...stamps(row.created, row.updated),
});
