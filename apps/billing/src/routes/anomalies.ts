import {
  conflict,
  describeIdentity,
  notFound,
  ok,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { AnomalyRow } from '../database.js';
import type { BillingRoutes } from '../domain/state.js';
import {
  anomalyAlerts,
  dismissAnomaly,
  findAnomaly,
  findAnomalyOwnership,
  listAnomalies,
  serviceNames,
} from '../repositories/anomalies.js';
import {
  AnomalyListQuery,
  AnomalyParams,
  AnomalySchema,
  DismissSchema,
  toAnomaly,
} from '../schemas/anomalies.js';

export const anomalyRoutes: BillingRoutes = async (app, { db }) => {
  // Anomalies are shared knowledge: any signed-in caller reads them. Dismissing one is the call of
  // the team that owns its catalog service (the owner in billing's copy of the catalog) and of
  // admins; a provider's anomaly, or a service's without an owner, belongs to no one: admins.
  const owner: Access['owner'] = (request) =>
    findAnomalyOwnership(db, (request.params as { id?: unknown }).id);
  const READ: Access = { resource: 'billing.anomaly', action: 'read' };
  const DISMISS: Access = { resource: 'billing.anomaly', action: 'update', rule: 'owner', owner };

  /** Anomalies as the API shows them: two queries for any number (names, alerts). */
  async function present(rows: AnomalyRow[]) {
    const names = await serviceNames(
      db,
      rows.filter((r) => r.scope === 'service').map((r) => r.key),
    );
    const alerts = await anomalyAlerts(db, rows);
    return rows.map((row) => toAnomaly(row, names, alerts));
  }
  const find = async (id: string) => {
    const row = await findAnomaly(db, id);
    if (!row) throw notFound('Anomaly', id);
    return row;
  };

  app.get(
    '/anomalies',
    {
      config: { access: READ },
      schema: {
        operationId: 'listAnomalies',
        summary: 'List spend anomalies, the latest day first',
        description:
          'Days whose spend of a catalog service or a provider was far above the days before (median and MAD; see the README), with their size (actual - expected, cents) and the alerts sent. Dismissed ones stay listed with status dismissed; those no longer found (their day out of the lookback, or ordinary after late spend) with status resolved.',
        querystring: AnomalyListQuery,
        response: responses({ 200: Type.Array(AnomalySchema) }),
      },
    },
    async ({ query }) => ok(await present(await listAnomalies(db, query, query))),
  );

  app.get(
    '/anomalies/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getAnomaly',
        summary: 'Get a spend anomaly',
        params: AnomalyParams,
        response: responses({ 200: AnomalySchema }),
      },
    },
    async (request) => ok((await present([await find(request.params.id)]))[0]),
  );

  app.post(
    '/anomalies/:id/dismiss',
    {
      config: { access: DISMISS },
      schema: {
        operationId: 'dismissAnomaly',
        summary: 'Dismiss a spend anomaly',
        description:
          'With a reason, kept with who dismissed it and when; it stays listed (status dismissed) and is not alerted again. The team that owns its catalog service and admins may; a provider anomaly: admins. 409 when it is dismissed already.',
        params: AnomalyParams,
        body: DismissSchema,
        response: responses({ 200: AnomalySchema }),
      },
    },
    async (request) => {
      const row = await find(request.params.id);
      if (row.status === 'dismissed')
        throw conflict(`Anomaly ${row.id} was dismissed already (${row.reason ?? 'no reason'})`);
      const by = request.identity.kind === 'anonymous' ? null : describeIdentity(request.identity);
      const dismissed = await dismissAnomaly(db, row.id, request.body.reason, by);
      return ok((await present([dismissed]))[0]);
    },
  );
};
