import { ApiError, badRequest, notFound, ok, responses, Type, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import { sealSecret } from '../domain/backends/secrets.js';
import { findApp } from '../repositories/apps.js';
import { countSecrets, deleteSecret, listSecrets, putSecret } from '../repositories/secrets.js';
import { AppParams } from '../schemas/apps.js';
import { SecretBody, SecretParams, SecretSchema, toSecret } from '../schemas/secrets.js';
import type { StageRoutes } from '../domain/state.js';

/**
 * /api/v1/stage/apps/:sid/secrets: an app's secrets, read by its backend as env.NAME. Write-only:
 * values are stored encrypted (a key derived from SESSION_SECRET) and never answered, logged or
 * shown again; only names and times are. The app's owners (its creator, its team) and admins.
 */
export const secretRoutes: StageRoutes = async (app, ctx) => {
  const { db, config, state } = ctx;
  const owner = appOwner(db);
  const access = (action: Access['action']): Access => ({ resource: 'stage.secret', action, rule: 'owner', owner }); // prettier-ignore

  app.get(
    '/apps/:sid/secrets',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'listAppSecrets',
        summary: "An app's secrets (names only)",
        description: 'Names and when each was set; never a value.',
        params: AppParams,
        response: responses({ 200: Type.Array(SecretSchema) }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      return ok((await listSecrets(db, found.sid)).map(toSecret));
    },
  );

  app.put(
    '/apps/:sid/secrets/:name',
    {
      config: { access: access('update') },
      schema: {
        operationId: 'setAppSecret',
        summary: 'Set an app secret',
        description:
          "Stores (or replaces) the secret, encrypted; the app's backend reads it as env.<name> from its next request. Answers its name and times, never the value. 413 beyond STAGE_BACKEND_SECRET_MAX_BYTES, 400 beyond STAGE_BACKEND_SECRETS_MAX secrets, or when SESSION_SECRET is not set (nothing to encrypt with).",
        params: SecretParams,
        body: SecretBody,
        response: responses({ 200: SecretSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const { name } = request.params;
      const { secretMaxBytes, secretsMax } = config.backends;
      const size = Buffer.byteLength(request.body.value);
      if (size > secretMaxBytes)
        throw new ApiError('PAYLOAD_TOO_LARGE', `value: the secret ${name} is ${size} bytes, over ${secretMaxBytes} (STAGE_BACKEND_SECRET_MAX_BYTES)`); // prettier-ignore
      const sealed = sealSecret(state.secretKey, request.body.value);
      if ((await countSecrets(db, found.sid, name)) >= secretsMax)
        throw badRequest(`App ${found.sid} keeps ${secretsMax} secrets already, the most it may (STAGE_BACKEND_SECRETS_MAX): delete one first`); // prettier-ignore
      return ok(toSecret(await putSecret(db, found.sid, name, sealed)));
    },
  );

  app.delete(
    '/apps/:sid/secrets/:name',
    {
      config: { access: access('delete') },
      schema: {
        operationId: 'deleteAppSecret',
        summary: 'Delete an app secret',
        description: 'Answers its name and times; the backend no longer has env.<name>.',
        params: SecretParams,
        response: responses({ 200: SecretSchema }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const row = await deleteSecret(db, found.sid, request.params.name);
      if (!row) throw notFound(`Secret of app ${found.sid}`, request.params.name);
      return ok(toSecret(row));
    },
  );
};
