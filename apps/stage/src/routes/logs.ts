import { ok, responses, Type, type Access } from '@platform/core';
import { appOwner } from '../domain/access.js';
import type { LogLevel } from '../domain/backends/protocol.js';
import { findApp, findAppBySid } from '../repositories/apps.js';
import { lastLogId, listLogs, logsAfter, type LogFilter } from '../repositories/logs.js';
import { LogLineSchema, LogListQuery, LogParams, LogStreamQuery, toLine } from '../schemas/logs.js';
import type { StageRoutes } from '../domain/state.js';

/** How often a live stream looks for lines other instances stored (this one's wake it at once). */
const POLL_MS = 1000;
const BATCH = 500;

const filterOf = (query: { level?: string; since?: number; requestId?: string }): LogFilter => ({
  levels: query.level?.split(',') as LogLevel[] | undefined,
  since: query.since === undefined ? undefined : new Date(query.since),
  requestId: query.requestId,
});

/** GET /api/v1/stage/apps/:sid/logs and /logs/stream: an app's backend's console lines. */
export const logRoutes: StageRoutes = async (app, ctx) => {
  const { db, config } = ctx;
  // What a backend logs may be anything its visitors sent: the app's owners (and admins) read it.
  const READ: Access = { resource: 'stage.log', action: 'read', rule: 'owner', owner: appOwner(db) }; // prettier-ignore
  const streams = new Set<AbortController>();
  // Before the server waits for its connections to end: the streams' are ended first.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.abort('the service is stopping');
  });

  app.get(
    '/apps/:sid/logs',
    {
      config: { access: READ },
      schema: {
        operationId: 'listAppLogs',
        summary: "An app's backend logs",
        description:
          "The console.* lines of the app's backend (requests and scheduled runs), newest first: the newest STAGE_BACKEND_LOG_KEEP are kept. Filters: level (comma-separated), since (epoch ms), requestId. Paging: `cursor` is the id of the last line of the previous page. Secret values of the app's are shown as [secret NAME]. The app's owners (its creator, its team) and admins.",
        params: LogParams,
        querystring: LogListQuery,
        response: responses({ 200: Type.Array(LogLineSchema) }),
      },
    },
    async (request) => {
      const found = await findApp(db, request.params.sid);
      const { limit, cursor } = request.query;
      const rows = await listLogs(db, found.sid, { ...filterOf(request.query), before: cursor }, limit); // prettier-ignore
      return ok(rows.map(toLine));
    },
  );

  app.get(
    '/apps/:sid/logs/stream',
    {
      config: { access: READ },
      schema: {
        operationId: 'streamAppLogs',
        summary: "An app's backend logs, live (Server-Sent Events)",
        description:
          "text/event-stream: an `open` event, then a `log` event per line as it is logged (its id the SSE id, its data a line as GET .../logs answers it), oldest first, with the same filters; `after` (or Last-Event-ID) sends the lines after that id first. Ends with an `end` event (reason: the app was deleted, STAGE_BACKEND_LOG_FOLLOW_MAX_MS passed, the service is stopping) or an `error` event; stops when the client goes away. The app's owners and admins.",
        params: LogParams,
        querystring: LogStreamQuery,
        response: responses({ 200: LogLineSchema }),
      },
    },
    async (request, reply) => {
      const found = await findApp(db, request.params.sid);
      const sid = found.sid;
      const filter = filterOf(request.query);
      const lastEventId = Number(request.headers['last-event-id']);
      let after =
        request.query.after ??
        (Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : await lastLogId(db, sid)); // prettier-ignore

      const stop = new AbortController();
      streams.add(stop);
      reply.hijack();
      const res = reply.raw;
      res.once('close', () => stop.abort('the client went away'));
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const send = (event: string, data: unknown, id?: number) => {
        if (!res.destroyed)
          res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); // prettier-ignore
      };
      send('open', { app: sid, after });
      const deadline = Date.now() + config.backends.logFollowMaxMs;
      let reason = '';
      try {
        while (!stop.signal.aborted) {
          const rows = await logsAfter(db, sid, filter, after, BATCH);
          for (const row of rows) send('log', toLine(row), (after = Number(row.id)));
          if (rows.length === BATCH) continue;
          if (Date.now() >= deadline) reason = 'STAGE_BACKEND_LOG_FOLLOW_MAX_MS passed';
          else if (!(await findAppBySid(db, sid))) reason = `app ${sid} was deleted`;
          if (reason) break;
          await ctx.state.logs.wait(sid, Math.min(POLL_MS, deadline - Date.now()), stop.signal);
        }
        send('end', { reason: reason || String(stop.signal.reason) });
      } catch (error) {
        request.log.error({ err: error }, 'stage logs: a live stream failed');
        send('error', { code: 'INTERNAL_ERROR', message: 'Reading the logs failed; reconnect' });
      } finally {
        streams.delete(stop);
        res.end();
      }
    },
  );
};
