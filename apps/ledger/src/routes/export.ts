import { Readable } from 'node:stream';
import { parseRange, responses, Type, type Access } from '@platform/core';
import type { LedgerRoutes } from '../domain/state.js';
import { formatEvent } from '../domain/sink-senders.js';
import { eventsAfter } from '../repositories/sinks.js';
import { ExportQuery } from '../schemas/sinks.js';

const READ: Access = { resource: 'ledger.event', action: 'read', rule: 'admin' };
const PAGE = 1000;

export const exportRoutes: LedgerRoutes = async (app, { db }) => {
  app.get(
    '/export',
    {
      config: { access: READ },
      schema: {
        operationId: 'exportEvents',
        summary: 'Export the trail (NDJSON or OCSF), streamed',
        description:
          'Every event with a timestamp in [from, to] (both optional), in chain order, one JSON object per line (`application/x-ndjson`), streamed page by page: `format=ndjson` (default) as GET /events answers each, `format=ocsf` as OCSF 1.1.0 API Activity (class_uid 6003; the mapping is in the README). Each line carries its seq, hash and prevHash, so the chain can be verified outside the platform. Errors before the first line are envelopes.',
        querystring: ExportQuery,
        produces: ['application/x-ndjson'],
        response: {
          ...responses({}),
          200: {
            description: 'One event per line',
            content: { 'application/x-ndjson': { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      const { from, to } = parseRange(request.query);
      const format = request.query.format ?? 'ndjson';
      async function* lines() {
        let after = 0;
        for (;;) {
          const rows = await eventsAfter(db, { after, limit: PAGE, from, to });
          for (const row of rows) yield `${JSON.stringify(formatEvent(row, format))}\n`;
          if (rows.length < PAGE) return;
          after = Number(rows.at(-1)?.seq);
        }
      }
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-${format}.ndjson"`)
        .send(Readable.from(lines()) as never);
    },
  );
};
