import { ApiError, ok, PagedQuery, responses, Type, type Access } from '@platform/core';
import { fetchModelIds } from '../domain/catalogs.js';
import { allowedBaseUrl, readKey } from '../domain/credentials.js';
import { classify } from '../domain/failures.js';
import type { InferenceRoutes } from '../domain/state.js';
import { listModels, replaceModels } from '../repositories/models.js';
import { findProvider, listProviders } from '../repositories/providers.js';
import { ModelSchema, SyncResultSchema, toModel } from '../schemas/models.js';

const READ: Access = { resource: 'inference.model', action: 'read' };
/** A sync sends every provider's key to its API: platform configuration, admins only. */
const SYNC: Access = { resource: 'inference.model', action: 'manage', rule: 'admin' };

export const modelRoutes: InferenceRoutes = async (app, { db, config }) => {
  app.get(
    '/models',
    {
      config: { access: READ },
      schema: {
        operationId: 'listModels',
        summary: 'List synced models, newest first',
        querystring: PagedQuery({
          provider: Type.Optional(
            Type.String({ minLength: 1, description: 'Provider id or name' }),
          ),
        }),
        response: responses({ 200: Type.Array(ModelSchema) }),
      },
    },
    async (request) => {
      const { provider, limit, offset } = request.query;
      const rows = await listModels(db, provider, { limit, offset });
      return ok(rows.map(toModel));
    },
  );

  app.post(
    '/models/sync',
    {
      config: { access: SYNC },
      schema: {
        operationId: 'syncModels',
        summary: "Sync models from the providers' model-list APIs",
        description:
          'Body `{ provider }` (id or name) syncs one provider, and its failure is the answer (400 key unset, 502); without it every provider is synced and each failure is reported in its row.',
        body: Type.Object({
          provider: Type.Optional(Type.String({ minLength: 1, title: 'provider' })),
        }),
        response: responses({ 200: SyncResultSchema }),
      },
    },
    async (request) => {
      const one = request.body?.provider;
      const providers = one ? [await findProvider(db, one)] : await listProviders(db);
      const results = [];
      for (const provider of providers) {
        try {
          allowedBaseUrl(config, provider.type, provider.base_url);
          const ids = await fetchModelIds(
            provider,
            readKey(config.env, provider),
            AbortSignal.timeout(config.timeoutMs),
          );
          const added = await replaceModels(db, provider.id, ids);
          results.push({ provider: provider.name, models: ids.length, added, error: null });
        } catch (error) {
          if (one) throw classifyForSync(error, provider);
          results.push({
            provider: provider.name,
            models: 0,
            added: 0,
            error: classifyForSync(error, provider).message,
          });
        }
      }
      return ok(results);
    },
  );
};

function classifyForSync(error: unknown, provider: { name: string; env_var: string | null }) {
  if (error instanceof ApiError) return error;
  const failure = classify(error, provider);
  return new ApiError(failure.code, failure.message);
}
