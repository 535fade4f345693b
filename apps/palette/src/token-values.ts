import { badRequest, conflict } from '@platform/core';
import type { Columns, PaletteDb, TokenRow } from './database.js';
import { categorySpec, type Category } from './domain/tokens.js';
import { EXPECTED, isOfKind } from './domain/values.js';
import { tokenPath, toToken } from './mappers.js';
import { aliasChain, tokenByPath, tokensByIds, tokensReferringTo } from './repositories/tokens.js';

/** Tokens in the API shape, aliases showing the current path of their targets (one query). */
export async function shownTokens(db: PaletteDb, rows: TokenRow[]) {
  const targets = await tokensByIds(
    db,
    rows.flatMap((r) => [r.value_default_ref, r.value_dark_ref]),
  );
  return rows.map((row) => toToken(row, targets));
}

/** `{color.blue.500}` -> `color.blue.500`: a DTCG alias is a whole value in braces. */
export const aliasPath = (value: string) =>
  /^\{([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\}$/.exec(value)?.[1] ?? null;

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
  changes: Partial<Columns<'tokens'>>,
  current?: TokenRow,
): Promise<void> {
  const category = (changes.category ?? current?.category) as Category;
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
    const target = kept ? await findById(db, kept) : await tokenByPath(db, path);
    if (!target) throw badRequest(`${field} refers to a token that does not exist: ${value}`);
    const targetType = categorySpec(target.category as Category).dtcg;
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
  if (recategorised && categorySpec(current.category as Category).dtcg !== dtcg) {
    const users = await tokensReferringTo(db, current.id);
    if (users.length > 0)
      throw conflict(
        `Token ${current.name} is referred to by tokens: ${users.map((u) => u.name).join(', ')}; it cannot change to a ${category} token (${dtcg})`,
      );
  }
}

const findById = (db: PaletteDb, id: string) =>
  db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
