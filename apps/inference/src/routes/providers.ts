import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  PagedQuery,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { InferenceConfig } from '../config.js';
import {
  announceProviderChange,
  deleteProvider,
  findProvider,
  insertProvider,
  listProviders,
  updateProvider,
} from '../repositories/providers.js';
import {
  ProviderInputSchema,
  ProviderSchema,
  ProviderUpdateSchema,
  toProvider,
} from '../schemas/providers.js';
import { allowedBaseUrl, checkEnvVar, checkModelName } from '../domain/credentials.js';
import type { InferenceRoutes } from '../domain/state.js';

/** Providers spend the company's model keys: platform configuration, changed by admins only. */
const READ: Access = { resource: 'inference.provider', action: 'read' };
const CREATE: Access = { resource: 'inference.provider', action: 'create', rule: 'admin' };
const UPDATE: Access = { resource: 'inference.provider', action: 'update', rule: 'admin' };
const DELETE: Access = { resource: 'inference.provider', action: 'delete', rule: 'admin' };

/**
 * A provider other than mock needs the variable of its key (a provider key's name) and a base URL
 * its key may be sent to. Answers the base URL to store: normalised, or null for the official API.
 */
function checkFields(
  config: InferenceConfig,
  type: string,
  envVar: string | null,
  baseUrl: string | null,
  defaultModel: string | undefined,
): string | null {
  if (defaultModel !== undefined) checkModelName('defaultModel', defaultModel);
  if (type !== 'mock' && !envVar)
    throw badRequest(`envVar is required for a provider of type ${type}`);
  if (envVar) checkEnvVar(envVar);
  const allowed = allowedBaseUrl(config, type, baseUrl);
  return baseUrl ? allowed : null;
}

export const providerRoutes: InferenceRoutes = async (app, { db, config, state }) => {
  const { providers } = state;
  /** After a write: this instance forgets its copy, the others hear of it. */
  const changed = async () => {
    providers.forget();
    await announceProviderChange(db);
  };
  app.get(
    '/providers',
    {
      config: { access: READ },
      schema: {
        operationId: 'listProviders',
        summary: 'List providers, oldest first',
        querystring: PagedQuery({}),
        response: responses({ 200: Type.Array(ProviderSchema) }),
      },
    },
    async (request) => ok((await listProviders(db, request.query)).map(toProvider)),
  );

  app.post(
    '/providers',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createProvider',
        summary: 'Create a provider',
        description:
          "409 CONFLICT when the name is taken in any case. 400 when envVar is not a provider key's name (OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, INFERENCE_KEY_*) or baseUrl is neither the type's official API nor listed in INFERENCE_BASE_URLS.",
        body: ProviderInputSchema,
        response: responses({ 201: ProviderSchema }),
      },
    },
    async (request, reply) => {
      const { name, type, defaultModel, envVar = null, baseUrl = null, weight } = request.body;
      const base = checkFields(config, type, envVar, baseUrl, defaultModel);
      const row = await orConflict(
        () =>
          insertProvider(db, {
            id: newId(),
            name,
            type,
            default_model: defaultModel,
            env_var: envVar,
            base_url: base,
            weight: weight ?? null,
          }),
        nameTaken('Provider', name),
      );
      await changed();
      return reply.code(201).send(ok(toProvider(row)));
    },
  );

  app.get(
    '/providers/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getProvider',
        summary: 'Get one provider',
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => ok(toProvider(await findProvider(db, request.params.idOrName))),
  );

  app.put(
    '/providers/:idOrName',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateProvider',
        summary: 'Update a provider',
        description: 'Changes the fields sent; `baseUrl: null` goes back to the public API.',
        params: IdOrNameParams,
        body: ProviderUpdateSchema,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const current = await findProvider(db, idOrName);
      const body = request.body;
      const type = body.type ?? current.type;
      const envVar = body.envVar === undefined ? current.env_var : body.envVar;
      const baseUrl = body.baseUrl === undefined ? current.base_url : body.baseUrl;
      // The merged provider is checked: a type or list change may make its base URL refused.
      const base = checkFields(config, type, envVar, baseUrl, body.defaultModel);
      const row = await orConflict(
        () =>
          updateProvider(db, current.id, {
            name: body.name,
            type: body.type,
            default_model: body.defaultModel,
            env_var: body.envVar,
            base_url: body.baseUrl === undefined ? undefined : base,
            weight: body.weight,
          }),
        nameTaken('Provider', body.name ?? current.name),
      );
      if (!row) throw notFound('Provider', idOrName);
      await changed();
      return ok(toProvider(row));
    },
  );

  app.delete(
    '/providers/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteProvider',
        summary: 'Delete a provider',
        description:
          'Answers with the provider as it was; its synced models go with it, its request log stays.',
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const row = await deleteProvider(db, (await findProvider(db, idOrName)).id);
      if (!row) throw notFound('Provider', idOrName);
      await changed();
      return ok(toProvider(row));
    },
  );
};
