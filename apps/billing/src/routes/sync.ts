import {
  IsoTimestamp,
  Nullable,
  Type,
  badRequest,
  newId,
  notFound,
  ok,
  parseInstant,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
} from '@platform/core';
import { sql } from '@platform/db';
import { ProviderError, type Adapter, type SyncRequest } from '../adapters/index.js';
import { type BillingDb, type SyncJobRow } from '../repository.js';

const tags = ['billing'];
const Day = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description });

const SyncJob = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  status: Type.Enum(['running', 'completed', 'failed']),
  itemsCreated: Type.Integer(),
  itemsUpdated: Type.Integer(),
  error: Nullable(Type.String()),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  projectId: Nullable(Type.String()),
  startedAt: IsoTimestamp,
  completedAt: Nullable(IsoTimestamp),
});

const toJob = (row: SyncJobRow): Static<typeof SyncJob> => ({
  id: row.id,
  provider: row.provider,
  status: row.status,
  itemsCreated: row.items_created,
  itemsUpdated: row.items_updated,
  error: row.error,
  from: row.from,
  to: row.to,
  projectId: row.project_id,
  startedAt: row.started_at.toISOString(),
  completedAt: row.completed_at?.toISOString() ?? null,
});

export const syncRoutes: FastifyPluginAsyncTypebox<{
  billing: BillingDb;
  adapters: Record<string, Adapter>;
}> = async (app, { billing, adapters }) => {
  const running = new Set<Promise<void>>();
  // Closing waits for syncs under way, so that none writes to a closed database.
  app.addHook('onClose', async () => {
    await Promise.all(running);
  });

  /** Upserts the items by (provider, providerRef) in one transaction and finishes the job. */
  async function run(job: SyncJobRow, adapter: Adapter, request: SyncRequest) {
    try {
      const items = await adapter.fetch(request);
      const counts = await billing.transaction().execute(async (trx) => {
        let created = 0;
        let updated = 0;
        for (const item of items) {
          const row = await trx
            .insertInto('items')
            .values({
              id: newId(12),
              name: item.name,
              amount: item.amount,
              currency: item.currency,
              provider: adapter.name,
              provider_ref: item.providerRef,
              description: item.description,
              date: item.date,
              tags: sql`'["synced"]'::jsonb` as never,
              recurring: false,
            })
            .onConflict((oc) =>
              oc
                .columns(['provider', 'provider_ref'])
                .where('provider_ref', 'is not', null)
                .doUpdateSet((eb) => ({
                  name: eb.ref('excluded.name'),
                  amount: eb.ref('excluded.amount'),
                  currency: eb.ref('excluded.currency'),
                  description: eb.ref('excluded.description'),
                  date: eb.ref('excluded.date'),
                  updated_at: sql`now()`,
                })),
            )
            .returning(sql<boolean>`xmax = 0`.as('inserted'))
            .executeTakeFirstOrThrow();
          if (row.inserted) created += 1;
          else updated += 1;
        }
        return { created, updated };
      });
      await billing
        .updateTable('sync_jobs')
        .set({
          status: 'completed',
          items_created: counts.created,
          items_updated: counts.updated,
          completed_at: new Date(),
        })
        .where('id', '=', job.id)
        .execute();
    } catch (error) {
      const message =
        error instanceof ProviderError ? error.message : 'The sync failed; see the service log';
      if (!(error instanceof ProviderError))
        app.log.error({ err: error, job: job.id }, 'sync failed');
      await billing
        .updateTable('sync_jobs')
        .set({ status: 'failed', error: message, completed_at: new Date() })
        .where('id', '=', job.id)
        .execute();
    }
  }

  app.post(
    '/sync',
    {
      schema: {
        tags,
        summary: 'Sync costs from a provider',
        description:
          'Starts a job and answers 202 with it (status running); GET /sync/jobs/:id shows it completed or failed. Items are upserted by (provider, providerRef): a repeated sync updates them. The token is used for this call only: never stored or logged.',
        body: Type.Object({
          provider: Type.String({ title: 'provider' }),
          token: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 1000,
              description: "The provider's access token",
            }),
          ),
          from: Day('First day (YYYY-MM-DD)'),
          to: Day('Last day (YYYY-MM-DD), inclusive'),
          projectId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          csv: Type.Optional(
            Type.String({ maxLength: 10_000_000, description: 'The FOCUS CSV (provider focus)' }),
          ),
        }),
        response: responses({ 202: SyncJob }),
      },
    },
    async (request, reply) => {
      const { provider, token, projectId, csv } = request.body;
      const adapter = adapters[provider];
      if (!adapter)
        throw badRequest(
          `Unknown provider ${provider}; adapters: ${Object.keys(adapters).join(', ')}`,
        );
      if (adapter.needsToken && !token) throw badRequest(`${provider} needs a token`);
      const from = parseInstant(request.body.from, 'from', 'from');
      const to = parseInstant(request.body.to, 'to', 'to');
      if (from > to) throw badRequest('from must not be after to');
      const job = await billing
        .insertInto('sync_jobs')
        .values({
          id: newId(12),
          provider,
          status: 'running',
          from: request.body.from,
          to: request.body.to,
          project_id: projectId ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const work = run(job, adapter, { token, from, to, projectId, csv }).finally(() =>
        running.delete(work),
      );
      running.add(work);
      return reply.code(202).send(ok(toJob(job)));
    },
  );

  app.get(
    '/sync/jobs',
    {
      schema: {
        tags,
        summary: 'List sync jobs, newest first',
        querystring: Type.Object({
          provider: Type.Optional(Type.String()),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
          offset: Type.Integer({ minimum: 0, default: 0 }),
        }),
        response: responses({ 200: Type.Array(SyncJob) }),
      },
    },
    async (request) => {
      let query = billing.selectFrom('sync_jobs').selectAll();
      if (request.query.provider) query = query.where('provider', '=', request.query.provider);
      const rows = await query
        .orderBy('started_at', 'desc')
        .orderBy('id')
        .limit(request.query.limit)
        .offset(request.query.offset)
        .execute();
      return ok(rows.map(toJob));
    },
  );

  app.get(
    '/sync/jobs/:id',
    {
      schema: {
        tags,
        summary: 'Get a sync job',
        params: Type.Object({ id: Type.String() }),
        response: responses({ 200: SyncJob }),
      },
    },
    async (request) => {
      const row = await billing
        .selectFrom('sync_jobs')
        .selectAll()
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!row) throw notFound('Sync job', request.params.id);
      return ok(toJob(row));
    },
  );

  app.get(
    '/sync/adapters',
    {
      schema: {
        tags,
        summary: 'The registered sync adapters',
        response: responses({
          200: Type.Array(
            Type.Object({
              name: Type.String(),
              description: Type.String(),
              needsToken: Type.Boolean(),
              baseUrl: Nullable(Type.String()),
            }),
          ),
        }),
      },
    },
    async () =>
      ok(
        Object.values(adapters).map(({ name, description, needsToken, baseUrl }) => ({
          name,
          description,
          needsToken,
          baseUrl,
        })),
      ),
  );
};
