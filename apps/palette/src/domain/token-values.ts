import { aliasPath } from './dtcg/tree.js';
import { badRequest, conflict, unique } from '@platform/core';
import type { Updateable } from '@platform/db';
import type { PaletteDb, TokenRow, TokensTable } from '../database.js';
import {
  aliasChain,
  modeValuesByToken,
  tokenById,
  tokenByPath,
  tokensByIds,
  tokensReferringTo,
} from '../repositories/tokens.js';
import { tokenPath, toToken, type TokenInput, type TokenUpdate } from '../schemas/tokens.js';
import { categorySpec, deriveCssVariable, deriveTailwindKey, legacyKebab } from './tokens.js';
import { EXPECTED, isOfKind } from './values.js';

// What a write does to a token: the columns of what was sent, its values checked and its aliases
// resolved; and tokens as shown, with the current paths of their aliases.

/** Tokens in the API shape, aliases showing the current path of their targets (one query). */
export async function shownTokens(db: PaletteDb, rows: TokenRow[]) {
  const targets = await tokensByIds(
    db,
    rows.flatMap((r) => [r.value_default_ref, r.value_dark_ref]),
  );
  const modes = await modeValuesByToken(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toToken(row, targets, modes.get(row.id)));
}

const FIELDS = [
  { field: 'value', column: 'value_default', ref: 'value_default_ref' },
  { field: 'dark', column: 'value_dark', ref: 'value_dark_ref' },
] as const;

/**
 * Checks the values a write leaves on a token (those sent, and those kept when the category
 * changes) against the category, and turns aliases into references: the token referred to must
 * exist, have the same DTCG type, and not lead back to this token. Sets the `*_ref` columns.
 */
export async function checkTokenValues(
  db: PaletteDb,
  changes: Updateable<TokensTable>,
  current?: TokenRow,
): Promise<void> {
  const category = changes.category ?? current!.category;
  const { kind, dtcg } = categorySpec(category);
  const recategorised = current !== undefined && changes.category !== undefined;
  for (const { field, column, ref } of FIELDS) {
    const sent = changes[column] !== undefined;
    const value = sent ? changes[column] : current?.[column];
    if (!sent && !recategorised) continue;
    if (value === null || value === undefined) {
      changes[ref] = null;
      continue;
    }
    const path = aliasPath(value);
    if (path === null) {
      if (!isOfKind(kind, value)) throw badRequest(`${field} is not ${EXPECTED[kind]}: ${value}`);
      changes[ref] = null;
      continue;
    }
    // An alias kept through a category change still refers to the same token.
    const kept = !sent ? current?.[ref] : null;
    const target = kept ? await tokenById(db, kept) : await tokenByPath(db, path);
    if (!target) throw badRequest(`${field} refers to a token that does not exist: ${value}`);
    const targetType = categorySpec(target.category).dtcg;
    if (targetType !== dtcg)
      throw badRequest(
        `${field} refers to ${target.name}, a ${target.category} token (${targetType}); a ${category} token can only refer to a ${dtcg} token`,
      );
    if (current) {
      const chain = await aliasChain(db, target.id);
      const back = chain.find((link) => link.id === current.id);
      if (back) {
        const names = [current.name];
        const byId = new Map(chain.map((link) => [link.id, link]));
        for (let at = byId.get(current.id); at?.via; at = byId.get(at.via))
          names.push(byId.get(at.via)?.name ?? '?');
        // names runs from this token back towards the target; the cycle reads the other way.
        throw badRequest(
          `${field} would make a cycle of aliases: ${[current.name, ...names.slice(1).reverse(), current.name].join(' -> ')}`,
        );
      }
    }
    changes[column] = `{${tokenPath(target)}}`;
    changes[ref] = target.id;
  }
  if (recategorised && categorySpec(current.category).dtcg !== dtcg) {
    const users = await tokensReferringTo(db, current.id);
    if (users.length > 0)
      throw conflict(
        `Token ${current.name} is referred to by tokens: ${users.map((u) => u.name).join(', ')}; it cannot change to a ${category} token (${dtcg})`,
      );
  }
}

/** The value and dark value sent, trimmed: undefined when not sent, a dark value null when cleared. */
function sentValues(input: TokenUpdate) {
  const value = typeof input.value === 'string' ? { default: input.value } : input.value;
  const dark = input.dark !== undefined ? input.dark : value?.dark;
  return { value_default: value?.default.trim(), value_dark: dark == null ? dark : dark.trim() };
}

/**
 * The columns of a new token, values as sent (trimmed) and not yet checked. cssVariable and
 * tailwindKey are derived from the name unless given.
 */
export function newTokenColumns(input: TokenInput) {
  const { name, category } = input;
  // The value is required on create: the default here is never used.
  const { value_default = '', value_dark } = sentValues(input);
  return {
    name,
    category,
    value_default,
    value_dark,
    group: input.group,
    description: input.description,
    tags: unique(input.tags ?? []),
    css_variable: input.cssVariable ?? deriveCssVariable(name),
    tailwind_key: input.tailwindKey ?? deriveTailwindKey(name, category),
  };
}

/**
 * The columns an update sets, values as sent (trimmed) and not yet checked. A rename re-derives
 * cssVariable and tailwindKey when they were derived (by today's rule or the one before it).
 */
export function tokenColumns(input: TokenUpdate, current: TokenRow): Updateable<TokensTable> {
  const category = input.category ?? current.category;
  const name = input.name ?? current.name;
  const wasDerived = (column: 'css_variable' | 'tailwind_key') =>
    [undefined, legacyKebab].some(
      (words) =>
        current[column] ===
        (column === 'css_variable'
          ? deriveCssVariable(current.name, words)
          : deriveTailwindKey(current.name, current.category, words)),
    );
  const renamed = input.name !== undefined;
  const out: Updateable<TokensTable> = {
    ...sentValues(input),
    name: input.name,
    category: input.category,
    group: input.group,
    description: input.description,
    tags: input.tags && unique(input.tags),
    css_variable: input.cssVariable,
    tailwind_key: input.tailwindKey,
  };
  // An imported token's DTCG path and source describe it as imported: a rename, a move or a new
  // value makes them stale, and the exports then derive both from the columns.
  if (renamed || input.group !== undefined) out.path = null;
  if (out.value_default !== undefined || out.value_dark !== undefined || out.category !== undefined)
    out.source = null;
  if (input.cssVariable === undefined && renamed && wasDerived('css_variable'))
    out.css_variable = deriveCssVariable(name);
  if (
    input.tailwindKey === undefined &&
    (renamed || input.category !== undefined) &&
    wasDerived('tailwind_key')
  )
    out.tailwind_key = deriveTailwindKey(name, category);
  return out;
}
