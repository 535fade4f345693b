import {
  badRequest,
  describeIdentity,
  grants,
  ownershipFor,
  visibleTo,
  type Access,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
  type Identity,
} from '@platform/core';
import { forbidden } from '../domain/permissions.js';
import { keyPrefix, newApiKey, sha256 } from '../domain/keys.js';
import { findKey, insertKey, listKeys, revokeKey, seedBootstrapKey } from '../repositories/keys.js';
import {
  ApiKeyInputSchema,
  ApiKeyListQuery,
  ApiKeySchema,
  NewApiKeySchema,
  toKey,
} from '../schemas/keys.js';
import { forgetCredentials } from '../domain/resolver.js';
import type { PassportRoutes } from '../domain/state.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const creator = (identity: Identity) =>
  identity.kind === 'anonymous' ? null : describeIdentity(identity);

/** A key never exceeds its creator: `admin` only from an admin, only reads from a viewer. */
function checkScopes(identity: Identity, scopes: string[]) {
  const role = identity.kind === 'user' || identity.kind === 'key' ? identity.role : 'admin';
  if (scopes.includes('admin') && role !== 'admin')
    throw forbidden(`Only an admin may make a key with the scope admin (you are ${role})`);
  if (identity.kind === 'key') {
    const beyond = scopes.filter(
      (scope) => !scope.includes(':') || !grants(identity.scopes, scope),
    );
    if (beyond.length > 0 && !identity.scopes.includes('admin'))
      throw forbidden(`A key may not make a key with scopes it lacks: ${beyond.join(', ')}`);
  }
  const writes = scopes.filter((scope) => !scope.endsWith(':read'));
  if (role === 'viewer' && writes.length > 0)
    throw forbidden(
      `A viewer's keys may only read: ${writes.join(', ')} would write (ask an admin for the member role)`,
    );
}
export const BOOTSTRAP_NAME = 'PLATFORM_API_KEY';

export const keyRoutes: PassportRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  const { audited } = ctx.state;
  // A person's own credentials: anyone signed in manages their keys (a viewer's only read);
  // through an API key, only a key with the scope admin may.
  const CREATE: Access = {
    resource: 'passport.key',
    action: 'create',
    rule: 'viewer',
    scope: 'admin',
  };
  const LIST: Access = { resource: 'passport.key', action: 'read', rule: 'viewer', scope: 'admin' };
  const owner: Access['owner'] = async (request) => {
    const { idOrName } = request.params as { idOrName: string };
    const row = await findKey(db, idOrName);
    return row && { createdBy: row.created_by, team: row.team };
  };
  const ONE: Access = {
    resource: 'passport.key',
    action: 'read',
    rule: 'owner',
    scope: 'admin',
    owner,
  };
  const REVOKE: Access = { ...ONE, action: 'delete' };

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
      config: { access: CREATE },
      schema: {
        operationId: 'createKey',
        summary: 'Create an API key',
        description:
          "Answers 201 with the key in `key`: shown this once, only its SHA-256 is kept. Send it as X-API-Key. 409 when a key not revoked has that name. A key never exceeds its creator's role (403 naming the scope otherwise); `team` makes a team key of a team the creator is in.",
        body: ApiKeyInputSchema,
        response: responses({ 201: NewApiKeySchema }),
      },
    },
    async (request, reply) => {
      const { name, expiresAt, scopes = ['*'], team } = request.body;
      checkScopes(request.identity, scopes);
      const owned = await ownershipFor(request.identity, team, ctx.access);
      const { identity } = request;
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
              metadata: {
                name,
                prefix: keyPrefix(key),
                expiresAt: iso(expires),
                scopes: scopes.join(' '),
                team: owned.team,
              },
            },
            (trx) =>
              insertKey(trx, {
                id,
                name,
                prefix: keyPrefix(key),
                key_hash: sha256(key),
                created_by: creator(identity),
                expires_at: expires,
                scopes,
                team: owned.team,
                creator_groups: identity.kind === 'user' ? identity.groups : [],
                // A team key, or one a key made, keeps the role its creator had.
                fixed_role:
                  identity.kind === 'user' && !owned.team
                    ? null
                    : identity.kind === 'user' || identity.kind === 'key'
                      ? identity.role
                      : 'admin',
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
      config: { access: LIST },
      schema: {
        operationId: 'listKeys',
        summary: 'List API keys, newest first',
        description:
          "Never the key: its prefix recognises it. Revoked and expired keys stay listed. An admin sees every key, anyone else those they created and their teams' keys.",
        querystring: ApiKeyListQuery,
        response: responses({ 200: Type.Array(ApiKeySchema) }),
      },
    },
    async ({ query, identity }) =>
      ok((await listKeys(db, query, await visibleTo(identity, ctx.access))).map(toKey)),
  );

  const find = async (idOrName: string) => {
    const row = await findKey(db, idOrName);
    if (!row) throw notFound('Key', idOrName);
    return row;
  };

  app.get(
    '/keys/:idOrName',
    {
      config: { access: ONE },
      schema: {
        operationId: 'getKey',
        summary: 'Get one API key',
        description: 'By exact id, else by name in any case (the live key of that name first).',
        params: IdOrNameParams,
        response: responses({ 200: ApiKeySchema }),
      },
    },
    async (request) => ok(toKey(await find(request.params.idOrName))),
  );

  app.delete(
    '/keys/:idOrName',
    {
      config: { access: REVOKE },
      schema: {
        operationId: 'revokeKey',
        summary: 'Revoke an API key',
        description:
          'The key stops working at once and stays listed with revokedAt; answers it as it is now. Its creator, its team and admins may revoke it.',
        params: IdOrNameParams,
        response: responses({ 200: ApiKeySchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const key = await find(idOrName);
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
