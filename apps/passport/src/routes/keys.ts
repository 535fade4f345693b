import {
  badRequest,
  describeIdentity,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
  type Identity,
  type ServiceRoutes,
} from '@platform/core';
import { auditTrail } from '../auth/audit.js';
import { adminCheck, forbidden } from '../auth/permissions.js';
import { keyPrefix, newApiKey, sha256 } from '../auth/keys.js';
import type { PassportConfig } from '../config.js';
import type { ApiKeyRow, PassportDatabase } from '../database.js';
import { findKey, insertKey, listKeys, revokeKey, seedBootstrapKey } from '../repositories/keys.js';
import {
  ApiKeyInputSchema,
  ApiKeyListQuery,
  ApiKeySchema,
  NewApiKeySchema,
  type ApiKey,
} from '../schemas/keys.js';
import { forgetCredentials } from '../auth/resolver.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const toKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: iso(row.last_used_at),
  expiresAt: iso(row.expires_at),
  revokedAt: iso(row.revoked_at),
  bootstrap: row.bootstrap,
});

const creator = (identity: Identity) =>
  identity.kind === 'anonymous' ? null : describeIdentity(identity);

export const BOOTSTRAP_NAME = 'PLATFORM_API_KEY';

export const keyRoutes: ServiceRoutes<PassportDatabase, PassportConfig> = async (app, ctx) => {
  const { db, config, auth } = ctx;
  const audited = auditTrail(ctx);
  const isAdmin = adminCheck(db, config, auth);

  /**
   * Whose keys the caller manages: every key (undefined) for an admin, the keys a signed-in user
   * created (their email) for anyone else; 403 for a key or service that is not an admin.
   */
  const scopeOf = async (identity: Identity): Promise<string | undefined> => {
    if (await isAdmin(identity)) return undefined;
    if (identity.kind === 'user') return identity.email;
    throw forbidden(
      `${describeIdentity(identity)} may not manage API keys: only an admin (AUTH_ADMINS, the bootstrap key or a key an admin created) or a signed-in user`,
    );
  };

  const bootstrap = config.bootstrapKey;
  await seedBootstrapKey(
    db,
    bootstrap === undefined
      ? undefined
      : {
          id: newId(),
          name: BOOTSTRAP_NAME,
          prefix: keyPrefix(bootstrap),
          key_hash: sha256(bootstrap),
          created_by: BOOTSTRAP_NAME,
          expires_at: null,
        },
  );

  app.post(
    '/keys',
    {
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key',
        description:
          'Answers 201 with the key in `key`: shown this once, only its SHA-256 is kept. Send it as X-API-Key. 409 when a key not revoked has that name. Admins and signed-in users only (403 for other keys).',
        body: ApiKeyInputSchema,
        response: responses({ 201: NewApiKeySchema }),
      },
    },
    async (request, reply) => {
      await scopeOf(request.identity);
      const { name, expiresAt } = request.body;
      if (name.toLowerCase() === BOOTSTRAP_NAME.toLowerCase())
        throw badRequest(`name ${BOOTSTRAP_NAME} is reserved for the bootstrap key`);
      const expires = expiresAt === undefined ? null : new Date(expiresAt);
      if (expires && expires.getTime() <= Date.now())
        throw badRequest(`expiresAt must be in the future, got ${expiresAt}`);
      const key = newApiKey();
      const id = newId();
      const row = await orConflict(
        () =>
          audited(
            {
              action: 'key.created',
              actor: describeIdentity(request.identity),
              resource: `key:${id}`,
              metadata: { name, prefix: keyPrefix(key), expiresAt: iso(expires) },
            },
            (trx) =>
              insertKey(trx, {
                id,
                name,
                prefix: keyPrefix(key),
                key_hash: sha256(key),
                created_by: creator(request.identity),
                expires_at: expires,
              }),
          ),
        nameTaken('Key', name),
      );
      return reply.code(201).send(ok({ ...toKey(row), key }));
    },
  );

  app.get(
    '/keys',
    {
      schema: {
        operationId: 'listKeys',
        summary: 'List API keys, newest first',
        description:
          'Never the key: its prefix recognises it. Revoked and expired keys stay listed. An admin sees every key, a signed-in user those they created; 403 for other keys.',
        querystring: ApiKeyListQuery,
        response: responses({ 200: Type.Array(ApiKeySchema) }),
      },
    },
    async ({ query, identity }) =>
      ok((await listKeys(db, query, await scopeOf(identity))).map(toKey)),
  );

  /** A key the caller manages (404 for another user's, so as not to reveal it). */
  const find = async (idOrName: string, identity: Identity) => {
    const row = await findKey(db, idOrName, await scopeOf(identity));
    if (!row) throw notFound('Key', idOrName);
    return row;
  };

  app.get(
    '/keys/:idOrName',
    {
      schema: {
        operationId: 'getKey',
        summary: 'Get one API key',
        description: 'By exact id, else by name in any case (the live key of that name first).',
        params: IdOrNameParams,
        response: responses({ 200: ApiKeySchema }),
      },
    },
    async (request) => ok(toKey(await find(request.params.idOrName, request.identity))),
  );

  app.delete(
    '/keys/:idOrName',
    {
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description:
          "The key stops working at once and stays listed with revokedAt; answers it as it is now. An admin revokes any key, a signed-in user only those they created (404 for others'); 403 for other keys.",
        params: IdOrNameParams,
        response: responses({ 200: ApiKeySchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const key = await find(idOrName, request.identity);
      if (key.revoked_at) return ok(toKey(key));
      const row = await audited(
        {
          action: 'key.revoked',
          actor: describeIdentity(request.identity),
          resource: `key:${key.id}`,
          metadata: { name: key.name, prefix: key.prefix },
        },
        (trx) => revokeKey(trx, key.id),
      );
      forgetCredentials();
      if (!row) throw notFound('Key', idOrName);
      return ok(toKey(row));
    },
  );
};
