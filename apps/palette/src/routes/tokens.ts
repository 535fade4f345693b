import {
  badRequest,
  conflict,
  IdOrNameParams,
  nameTaken,
  ok,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
  ownershipColumns,
  teamChange,
} from '@platform/core';
import { isUniqueViolation } from '@platform/db';
import type { PaletteDatabase, PaletteDb, TokenRow } from '../database.js';
import { measurableColor } from '../domain/css.js';
import { resolveValue } from '../domain/resolve.js';
import {
  checkTokenValues,
  newTokenColumns,
  shownTokens,
  tokenColumns,
} from '../domain/token-values.js';
import { contrast } from '../domain/tokens.js';
import { findOwnership } from '../repositories/records.js';
import {
  aliasChain,
  deleteToken,
  findToken,
  insertToken,
  listTokens,
  lockAliases,
  otherTokenNamed,
  tokensByIds,
  tokensReferringTo,
  tokenUsage,
  updateToken,
} from '../repositories/tokens.js';
import {
  ContrastQuery,
  ContrastSchema,
  TokenInputSchema,
  TokenListQuery,
  TokenSchema,
  TokenUpdateSchema,
  TokenWithUsageSchema,
} from '../schemas/tokens.js';

/**
 * A unique violation as a 409 saying which value is taken, the name first: Postgres names only
 * the first index it trips on, which need not be the name's.
 */
async function takenValue(db: PaletteDb, error: unknown, name: string | undefined, id?: string) {
  if (!isUniqueViolation(error)) return error;
  if (name !== undefined && (await otherTokenNamed(db, name, id)))
    return conflict(nameTaken('Token', name));
  const constraint = (error as { constraint?: string }).constraint ?? '';
  if (constraint.includes('tailwind_key'))
    return conflict('Another token of that category has that tailwindKey');
  return conflict('Another token has that cssVariable');
}

/** The color a token shows in a mode, aliases followed; 400 when the server cannot compute it. */
async function colorOf(db: PaletteDb, token: TokenRow, mode: 'light' | 'dark'): Promise<string> {
  const chain = await tokensByIds(
    db,
    (await aliasChain(db, token.id)).map((link) => link.id),
  );
  const resolved = resolveValue(token, mode, (id) => chain.get(id));
  if (!resolved) throw badRequest(`Token ${token.name} has a broken alias`);
  const color = measurableColor(resolved.value, mode);
  if (color === null)
    throw badRequest(
      `Token ${token.name} has a ${mode} color the contrast cannot be computed from: ${resolved.value}`,
    );
  return color;
}

export const tokenRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads (and measures contrast); members create tokens;
  // their creator, their team and admins change or delete them.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'tokens', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'palette.token', action: 'read' };
  const CREATE: Access = { resource: 'palette.token', action: 'create' };
  const UPDATE: Access = { resource: 'palette.token', action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource: 'palette.token', action: 'delete', rule: 'owner', owner };

  const shown = async (row: TokenRow) => (await shownTokens(db, [row]))[0];

  app.get(
    '/tokens',
    {
      config: { access: READ },
      schema: {
        operationId: 'listTokens',
        summary: 'List tokens by name',
        querystring: TokenListQuery,
        response: responses({ 200: Type.Array(TokenSchema) }),
      },
    },
    async (request) => ok(await shownTokens(db, await listTokens(db, request.query))),
  );

  app.post(
    '/tokens',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createToken',
        summary: 'Create a token',
        body: TokenInputSchema,
        response: responses({ 201: TokenSchema }),
      },
    },
    async (request, reply) => {
      const owned = await ownershipColumns(request.identity, request.body.team, access);
      const values = { ...newTokenColumns(request.body), ...owned };
      try {
        const row = await db.transaction().execute(async (trx) => {
          await lockAliases(trx);
          await checkTokenValues(trx, values);
          return insertToken(trx, values);
        });
        return reply.code(201).send(ok(await shown(row)));
      } catch (error) {
        throw await takenValue(db, error, request.body.name);
      }
    },
  );

  app.get(
    '/tokens/contrast',
    {
      config: { access: READ },
      schema: {
        operationId: 'tokenContrast',
        summary: 'WCAG contrast of two color tokens, in both modes',
        description:
          'AA needs 4.5 (normal text) or 3 (large text); AAA 7 or 4.5. Dark mode uses each token’s dark value, or its default. Aliases are followed, light-dark() gives its light or dark color, and translucent colors are drawn over what is under them first: the background over the backdrop (white in light mode, black in dark mode, unless a backdrop token is given), the foreground over that.',
        querystring: ContrastQuery,
        response: responses({ 200: ContrastSchema }),
      },
    },
    async (request) => {
      const { foreground, background, backdrop } = request.query;
      const fg = await findToken(db, foreground);
      const bg = await findToken(db, background);
      const under = backdrop === undefined ? undefined : await findToken(db, backdrop);
      for (const t of [fg, bg, under])
        if (t && t.category !== 'color')
          throw badRequest(`Token ${t.name} is not a color (${t.category})`);
      const inMode = async (mode: 'light' | 'dark') =>
        contrast(
          await colorOf(db, fg, mode),
          await colorOf(db, bg, mode),
          under ? await colorOf(db, under, mode) : mode === 'light' ? '#ffffff' : '#000000',
        );
      return ok({
        foreground: { id: fg.id, name: fg.name },
        background: { id: bg.id, name: bg.name },
        light: await inMode('light'),
        dark: await inMode('dark'),
      });
    },
  );

  app.get(
    '/tokens/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getToken',
        summary: 'Get a token with its usage',
        params: IdOrNameParams,
        response: responses({ 200: TokenWithUsageSchema }),
      },
    },
    async (request) => {
      const row = await findToken(db, request.params.idOrName);
      return ok({ ...(await shown(row)), usage: await tokenUsage(db, row.id) });
    },
  );

  app.put(
    '/tokens/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateToken',
        summary: 'Update a token',
        description:
          'Changes the fields sent. A rename re-derives cssVariable and tailwindKey unless they were set by hand; aliases of the token follow it.',
        params: IdOrNameParams,
        body: TokenUpdateSchema,
        response: responses({ 200: TokenSchema }),
      },
    },
    async (request) => {
      const current = await findToken(db, request.params.idOrName);
      const team = await teamChange(request.identity, request.body.team, access);
      const changes = { ...tokenColumns(request.body, current), team };
      try {
        const row = await db.transaction().execute(async (trx) => {
          await lockAliases(trx);
          await checkTokenValues(trx, changes, current);
          return updateToken(trx, current.id, changes);
        });
        return ok(await shown(row));
      } catch (error) {
        throw await takenValue(db, error, request.body.name, current.id);
      }
    },
  );

  app.delete(
    '/tokens/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteToken',
        summary: 'Delete a token',
        description:
          'Answers with the deleted token; 409 while components use it or other tokens are aliases of it, naming them.',
        params: IdOrNameParams,
        response: responses({ 200: TokenSchema }),
      },
    },
    async (request) => {
      const row = await findToken(db, request.params.idOrName);
      const { components } = await tokenUsage(db, row.id);
      const tokens = await tokensReferringTo(db, row.id);
      const users = [
        ...(components.length > 0
          ? [`components: ${components.map((c) => c.name).join(', ')}`]
          : []),
        ...(tokens.length > 0 ? [`tokens: ${tokens.map((t) => t.name).join(', ')}`] : []),
      ];
      if (users.length > 0) throw conflict(`Token ${row.name} is used by ${users.join('; ')}`);
      const deleted = await shown(row);
      await deleteToken(db, row.id);
      return ok(deleted);
    },
  );
};
