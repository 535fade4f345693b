import {
  badRequest,
  encryptSecret,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type AuthSettings,
} from '@platform/core';
import type { SinkRow } from '../database.js';
import type { LedgerRoutes } from '../domain/state.js';
import { sinkKey } from '../domain/sinks.js';
import {
  deleteSink,
  getSink,
  headSeq,
  insertSink,
  listSinks,
  updateSink,
} from '../repositories/sinks.js';
import {
  SinkInputSchema,
  SinkListQuery,
  SinkSchema,
  SinkUpdateSchema,
  toSink,
  type SinkUpdate,
} from '../schemas/sinks.js';

/** Where the trail goes is the admins' to decide (and to see). */
const access = (action: Access['action']): Access => ({
  resource: 'ledger.sink',
  action,
  rule: 'admin',
});

/** The columns a sink's fields make, checked against its kind; 400 naming what is wrong. */
function columnsOf(kind: SinkRow['kind'], fields: SinkUpdate, auth: AuthSettings, had?: SinkRow) {
  const url = fields.url ?? had?.url ?? undefined;
  const host = fields.host ?? had?.host ?? undefined;
  const port = fields.port ?? had?.port ?? undefined;
  if (kind === 'webhook') {
    if (!url) throw badRequest('A webhook sink needs url');
    if (fields.host !== undefined || fields.port !== undefined || fields.tls !== undefined)
      throw badRequest('host, port and tls are for syslog sinks; a webhook sink has url');
    if (!fields.secret && !had?.secret_encrypted)
      throw badRequest('A webhook sink needs secret (its X-Platform-Signature key)');
  } else {
    if (!host || !port) throw badRequest('A syslog sink needs host and port');
    if (fields.url !== undefined || fields.secret !== undefined)
      throw badRequest('url and secret are for webhook sinks; a syslog sink has host and port');
  }
  let secret: string | undefined;
  if (fields.secret) {
    const key = sinkKey(auth);
    if (!key)
      throw badRequest(
        'A webhook secret is kept encrypted with SESSION_SECRET: turn authentication on first',
      );
    secret = encryptSecret(key, fields.secret);
  }
  return {
    name: fields.name,
    url: kind === 'webhook' ? url : null,
    host: kind === 'syslog' ? host : null,
    port: kind === 'syslog' ? port : null,
    tls: fields.tls,
    format: fields.format,
    enabled: fields.enabled,
    ...(secret ? { secret_encrypted: secret } : {}),
  };
}

export const sinkRoutes: LedgerRoutes = async (app, { db, auth }) => {
  app.post(
    '/sinks',
    {
      config: { access: access('create') },
      schema: {
        operationId: 'createSink',
        summary: 'Add a sink (webhook or syslog)',
        description:
          'New events are pushed to it as they are appended, in chain order, with retries; delivery resumes after restarts where the receiver last acknowledged. A webhook gets POSTs of `{ sink, format, events }` signed `X-Platform-Signature: sha256=HMAC-SHA256(secret, "<X-Platform-Timestamp>.<body>")`; syslog gets RFC 5424 messages over TCP (octet counting; TLS with `tls`). Starts after the current head unless `fromStart`.',
        body: SinkInputSchema,
        response: responses({ 201: SinkSchema }),
      },
    },
    async (request, reply) => {
      const { kind, fromStart, ...fields } = request.body;
      const columns = columnsOf(kind, fields, auth);
      const cursor = fromStart ? 0 : await headSeq(db);
      const row = await orConflict(
        () => insertSink(db, { id: newId(), kind, ...columns, name: fields.name, cursor }),
        nameTaken('Sink', fields.name),
      );
      return reply.code(201).send(ok(toSink(row)));
    },
  );

  app.get(
    '/sinks',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'listSinks',
        summary: 'List sinks',
        description: 'By name; `kind` and `enabled` filter. Secrets are never shown.',
        querystring: SinkListQuery,
        response: responses({ 200: Type.Array(SinkSchema) }),
      },
    },
    async (request) => {
      const { kind, enabled, limit, offset } = request.query;
      return ok((await listSinks(db, { kind, enabled }, { limit, offset })).map(toSink));
    },
  );

  app.get(
    '/sinks/:idOrName',
    {
      config: { access: access('read') },
      schema: {
        operationId: 'getSink',
        summary: 'Get a sink, with its delivery state',
        params: IdOrNameParams,
        response: responses({ 200: SinkSchema }),
      },
    },
    async (request) => ok(toSink(await getSink(db, request.params.idOrName))),
  );

  app.patch(
    '/sinks/:idOrName',
    {
      config: { access: access('update') },
      schema: {
        operationId: 'updateSink',
        summary: 'Change a sink',
        description:
          'Fields not sent stay; its kind never changes. Enabling a sink again resets its backoff; its cursor stays, so nothing is skipped.',
        params: IdOrNameParams,
        body: SinkUpdateSchema,
        response: responses({ 200: SinkSchema }),
      },
    },
    async (request) => {
      const sink = await getSink(db, request.params.idOrName);
      const columns = columnsOf(sink.kind, request.body, auth, sink);
      const name = request.body.name ?? sink.name;
      const row = await orConflict(
        () =>
          updateSink(db, sink.id, {
            ...columns,
            ...(request.body.enabled ? { failures: 0, next_attempt_at: new Date() } : {}),
          }),
        nameTaken('Sink', name),
      );
      return ok(toSink(row));
    },
  );

  app.delete(
    '/sinks/:idOrName',
    {
      config: { access: access('delete') },
      schema: {
        operationId: 'deleteSink',
        summary: 'Remove a sink',
        params: IdOrNameParams,
        response: responses({ 200: SinkSchema }),
      },
    },
    async (request) => {
      const sink = await getSink(db, request.params.idOrName);
      await deleteSink(db, sink.id);
      return ok(toSink(sink));
    },
  );
};
