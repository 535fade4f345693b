import {
  badRequest,
  conflict,
  findByIdOrName,
  IdOrNameParams,
  nameTaken,
  ok,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import { isUniqueViolation } from '@platform/db';
import type { Columns, PaletteDatabase, PaletteDb } from '../database.js';
import { contrast } from '../domain/tokens.js';
import { tokenColumns, toToken } from '../mappers.js';
import { deleteRecord, insertRecord, listNamed, updateRecord } from '../repositories/records.js';
import { otherTokenNamed, tokenUsage } from '../repositories/tokens.js';
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

export const tokenRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  const findToken = (idOrName: string) => findByIdOrName(db, 'tokens', idOrName, 'Token');

  app.get(
    '/tokens',
    {
      schema: {
        operationId: 'listTokens',
        summary: 'List tokens by name',
        querystring: TokenListQuery,
        response: responses({ 200: Type.Array(TokenSchema) }),
      },
    },
    async (request) => ok((await listNamed(db, 'tokens', request.query)).map(toToken)),
  );

  app.post(
    '/tokens',
    {
      schema: {
        operationId: 'createToken',
        summary: 'Create a token',
        body: TokenInputSchema,
        response: responses({ 201: TokenSchema }),
      },
    },
    async (request, reply) => {
      const values = tokenColumns(request.body) as Columns<'tokens'>;
      try {
        return reply.code(201).send(ok(toToken(await insertRecord(db, 'tokens', values))));
      } catch (error) {
        throw await takenValue(db, error, request.body.name);
      }
    },
  );

  app.get(
    '/tokens/contrast',
    {
      schema: {
        operationId: 'tokenContrast',
        summary: 'WCAG contrast of two color tokens, in both modes',
        description:
          'AA needs 4.5 (normal text) or 3 (large text); AAA 7 or 4.5. Dark mode uses each token’s dark value, or its default.',
        querystring: ContrastQuery,
        response: responses({ 200: ContrastSchema }),
      },
    },
    async (request) => {
      const fg = await findToken(request.query.foreground);
      const bg = await findToken(request.query.background);
      for (const t of [fg, bg])
        if (t.category !== 'color')
          throw badRequest(`Token ${t.name} is not a color (${t.category})`);
      return ok({
        foreground: { id: fg.id, name: fg.name },
        background: { id: bg.id, name: bg.name },
        light: contrast(fg.value_default, bg.value_default),
        dark: contrast(fg.value_dark ?? fg.value_default, bg.value_dark ?? bg.value_default),
      });
    },
  );

  app.get(
    '/tokens/:idOrName',
    {
      schema: {
        operationId: 'getToken',
        summary: 'Get a token with its usage',
        params: IdOrNameParams,
        response: responses({ 200: TokenWithUsageSchema }),
      },
    },
    async (request) => {
      const row = await findToken(request.params.idOrName);
      return ok({ ...toToken(row), usage: await tokenUsage(db, row.id) });
    },
  );

  app.put(
    '/tokens/:idOrName',
    {
      schema: {
        operationId: 'updateToken',
        summary: 'Update a token',
        description:
          'Changes the fields sent. A rename re-derives cssVariable and tailwindKey unless they were set by hand.',
        params: IdOrNameParams,
        body: TokenUpdateSchema,
        response: responses({ 200: TokenSchema }),
      },
    },
    async (request) => {
      const current = await findToken(request.params.idOrName);
      const changes = tokenColumns(request.body, current);
      try {
        return ok(toToken(await updateRecord(db, 'tokens', current.id, changes)));
      } catch (error) {
        throw await takenValue(db, error, request.body.name, current.id);
      }
    },
  );

  app.delete(
    '/tokens/:idOrName',
    {
      schema: {
        operationId: 'deleteToken',
        summary: 'Delete a token',
        description: 'Answers with the deleted token; 409 while components use it, naming them.',
        params: IdOrNameParams,
        response: responses({ 200: TokenSchema }),
      },
    },
    async (request) => {
      const row = await findToken(request.params.idOrName);
      const { components } = await tokenUsage(db, row.id);
      if (components.length > 0)
        throw conflict(
          `Token ${row.name} is used by components: ${components.map((c) => c.name).join(', ')}`,
        );
      await deleteRecord(db, 'tokens', row.id);
      return ok(toToken(row));
    },
  );
};
