import {
  ApiError,
  badRequest,
  creatorOf,
  notFound,
  ok,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { InboxFeed } from '../domain/inbox-feed.js';
import type { CommunicationRoutes } from '../domain/state.js';
import { recipientFor } from '../domain/unsubscribe.js';
import {
  findInboxMessage,
  lastSeq,
  listInbox,
  markInboxMessage,
  unreadCount,
} from '../repositories/inbox.js';
import {
  InboxCountSchema,
  InboxListQuery,
  InboxMessageSchema,
  InboxParams,
  InboxPatchSchema,
  InboxRecipientQuery,
  toInboxMessage,
} from '../schemas/inbox.js';

/** Live streams one person (or, authentication off, one recipient) may have open at once. */
export const STREAMS_PER_IDENTITY = 5;

/** GET /inbox, PATCH /inbox/:id, GET /inbox/count, GET /inbox/stream: a person's in-app messages. */
export const inboxRoutes: CommunicationRoutes = async (app, { db, auth, state, config }) => {
  // Anyone signed in reads their own inbox; the handlers check whose (admins: anyone's).
  const READ: Access = { resource: 'communication.inbox', action: 'read', rule: 'viewer' };
  const UPDATE: Access = { resource: 'communication.inbox', action: 'update', rule: 'viewer' };
  const streams = new Set<AbortController>();
  /** Open streams by who opened them (the cap). */
  const opened = new Map<string, number>();
  const feed = new InboxFeed(db, app.log, state.inbox);
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.abort('the service is stopping');
  });

  app.get(
    '/inbox',
    {
      config: { access: READ },
      schema: {
        operationId: 'listInbox',
        summary: "The caller's in-app messages, newest first",
        description:
          'Messages sent through an `inbox` channel to the caller (`recipient`: admins and authentication off). `status` filters (default: all but archived); `limit` (100, at most 1000) and `offset` page.',
        querystring: InboxListQuery,
        response: responses({ 200: Type.Array(InboxMessageSchema) }),
      },
    },
    async (request) => {
      const { recipient: asked, status, limit, offset } = request.query;
      const recipient = recipientFor(request.identity, auth.enabled, asked);
      const rows = await listInbox(db, recipient, { status }, { limit, offset });
      return ok(rows.map(toInboxMessage));
    },
  );

  app.get(
    '/inbox/count',
    {
      config: { access: READ },
      schema: {
        operationId: 'countInbox',
        summary: "The number of the caller's unread messages",
        description: 'Unread and not archived.',
        querystring: InboxRecipientQuery,
        response: responses({ 200: InboxCountSchema }),
      },
    },
    async (request) => {
      const recipient = recipientFor(request.identity, auth.enabled, request.query.recipient);
      return ok({ unread: await unreadCount(db, recipient) });
    },
  );

  app.patch(
    '/inbox/:id',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateInboxMessage',
        summary: 'Mark a message read or unread, archived or not',
        description: "The recipient's own messages (admins: anyone's); another's is 404.",
        params: InboxParams,
        body: InboxPatchSchema,
        response: responses({ 200: InboxMessageSchema }),
      },
    },
    async (request) => {
      const { read, archived } = request.body;
      if (read === undefined && archived === undefined)
        throw badRequest('Give read or archived (or both)');
      const row = await findInboxMessage(db, request.params.id);
      // Another's message is 404, as if it did not exist.
      const mine = (recipient: string) => {
        try {
          recipientFor(request.identity, auth.enabled, recipient);
          return true;
        } catch {
          return false;
        }
      };
      if (!row || !mine(row.recipient)) throw notFound('Inbox message', request.params.id);
      const saved = await markInboxMessage(db, row.id, { read, archived });
      state.inbox.emit('message', row.recipient);
      return ok(toInboxMessage(saved));
    },
  );

  app.get(
    '/inbox/stream',
    {
      config: { access: READ },
      schema: {
        operationId: 'streamInbox',
        summary: "The caller's inbox, live (Server-Sent Events)",
        description:
          'text/event-stream for EventSource: an `open` event with `{ unread }`, then a `message` event per new message (its `seq` the SSE id; data a message as GET /inbox answers it) and a `count` event `{ unread }` whenever the count changes; Last-Event-ID resumes after that message. Ends with an `end` event after COMMUNICATION_INBOX_STREAM_MAX_MS (10 minutes) or when the service stops (EventSource reconnects). At most 5 streams open per person (429 beyond); one poller per instance serves them all.',
        querystring: InboxRecipientQuery,
        response: {
          ...responses({}),
          200: {
            description: 'Server-Sent Events: open, message, count, end',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      const recipient = recipientFor(
        request.identity,
        auth.enabled,
        request.query.recipient,
      ).toLowerCase();
      const who = creatorOf(request.identity) ?? recipient;
      const count = opened.get(who) ?? 0;
      if (count >= STREAMS_PER_IDENTITY)
        throw new ApiError(
          'RATE_LIMITED',
          `${who} has ${STREAMS_PER_IDENTITY} live inbox streams open already: close one (each open page keeps one)`,
        );
      opened.set(who, count + 1);
      const stop = new AbortController();
      streams.add(stop);
      let unsubscribe = () => {};
      try {
        const lastEventId = request.headers['last-event-id'];
        const after =
          typeof lastEventId === 'string' && /^\d{1,15}$/.test(lastEventId)
            ? lastEventId
            : await lastSeq(db, recipient);
        const unread = await unreadCount(db, recipient);
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
        const send = (event: string, data: unknown, id?: string) => {
          if (!res.destroyed)
            res.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); // prettier-ignore
        };
        send('open', { unread });
        unsubscribe = feed.subscribe({
          recipient,
          after: Number(after),
          unread,
          message: (row) => send('message', toInboxMessage(row), row.seq),
          count: (now) => send('count', { unread: now }),
        });
        await new Promise<void>((resolve) => {
          // Ends after COMMUNICATION_INBOX_STREAM_MAX_MS; EventSource reconnects with Last-Event-ID.
          const timer = setTimeout(resolve, config.inboxStreamMaxMs);
          stop.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        send('end', { reason: stop.signal.aborted ? String(stop.signal.reason) : 'reconnect' });
        res.end();
      } finally {
        unsubscribe();
        streams.delete(stop);
        const left = (opened.get(who) ?? 1) - 1;
        if (left > 0) opened.set(who, left);
        else opened.delete(who);
      }
    },
  );
};
