import {
  ApiError,
  badRequest,
  ErrorEnvelopeSchema,
  named,
  ok,
  responses,
  Type,
  type Access,
} from '@platform/core';
import type { CommunicationRoutes } from '../domain/state.js';
import { readUnsubscribeToken, recipientFor, type Unsubscribe } from '../domain/unsubscribe.js';
import { preferencesOf, setPreferences } from '../repositories/preferences.js';
import {
  PreferencesInput,
  PreferencesQuery,
  PreferencesSchema,
  UnsubscribeBody,
  UnsubscribedSchema,
  UnsubscribeQuery,
} from '../schemas/preferences.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const preferenceRoutes: CommunicationRoutes = async (app, { db, config, auth }) => {
  // Viewers too: anyone signed in reads and sets their own; the handler checks whose.
  const READ: Access = { resource: 'communication.preference', action: 'read', rule: 'viewer' };
  const WRITE: Access = { resource: 'communication.preference', action: 'update', rule: 'viewer' };
  // The link is the credential: recipients follow it from a mail, signed in or not.
  const LINK: Access = { resource: 'communication.preference', action: 'update', rule: 'public' };

  const answer = async (recipient: string) => ({
    recipient: recipient.toLowerCase(),
    preferences: (await preferencesOf(db, recipient)).map((p) => ({
      category: p.category,
      channel: p.channel,
      enabled: p.enabled,
      updatedAt: p.updated_at.toISOString(),
    })),
    required: config.requiredCategories,
  });

  app.get(
    '/preferences',
    {
      config: { access: READ },
      schema: {
        operationId: 'getPreferences',
        summary: "A person's preferences: the categories they turned off or on, per channel",
        description:
          "Without a preference a category is on. `recipient`: anyone's for admins and with authentication off; a person reads their own (the default), another's is 403.",
        querystring: PreferencesQuery,
        response: responses({ 200: PreferencesSchema }),
      },
    },
    async (request) =>
      ok(await answer(recipientFor(request.identity, auth.enabled, request.query.recipient))),
  );

  app.put(
    '/preferences',
    {
      config: { access: WRITE },
      schema: {
        operationId: 'setPreferences',
        summary: 'Turn categories of messages off or on, per channel',
        description:
          "Each preference names a category and a channel (a channel name, or a provider for all its channels; a name wins). A required category (COMMUNICATION_REQUIRED_CATEGORIES, `security` by default) cannot be turned off: 400, nothing changed. A person sets their own; admins anyone's.",
        body: PreferencesInput,
        response: responses({ 200: PreferencesSchema }),
      },
    },
    async (request) => {
      const recipient = recipientFor(request.identity, auth.enabled, request.body.recipient);
      const prefs = request.body.preferences.map((p) => ({
        ...p,
        channel: p.channel.toLowerCase(),
      }));
      const required = prefs.find(
        (p) => !p.enabled && config.requiredCategories.includes(p.category),
      );
      if (required)
        throw badRequest(
          `category ${required.category} is required: it cannot be turned off (COMMUNICATION_REQUIRED_CATEGORIES)`,
        );
      await setPreferences(db, recipient, prefs);
      return ok(await answer(recipient));
    },
  );

  const tokenOf = (token: string): Unsubscribe => {
    const key = config.unsubscribeKey;
    const what = key ? readUnsubscribeToken(key, token) : undefined;
    if (!what)
      throw badRequest(
        'token is not a valid unsubscribe link: it may have been cut short or altered',
      );
    return what;
  };

  app.get(
    '/unsubscribe',
    {
      config: { access: LINK },
      schema: {
        operationId: 'unsubscribePage',
        summary: 'The page an unsubscribe link opens',
        description:
          'An HTML page naming what the link turns off, with a button that does it (a POST): opening the link changes nothing, so that mail scanners following links unsubscribe no one.',
        querystring: UnsubscribeQuery,
        response: { 200: Type.String({ description: 'text/html' }), '4xx': ErrorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const what = tokenOf(request.query.token);
      const action = `unsubscribe?token=${encodeURIComponent(request.query.token)}`;
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; form-action 'self'")
        .send(
          `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body>` +
            `<h1>Unsubscribe</h1><p>Stop messages of category <b>${escape(what.category)}</b> on <b>${escape(what.channel)}</b> to <b>${escape(what.recipient)}</b>?</p>` +
            `<form method="post" action="${escape(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click">` +
            `<button type="submit">Unsubscribe</button></form></body></html>`,
        );
    },
  );

  await app.register(
    named(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 4096 },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.post(
        '/unsubscribe',
        {
          config: { access: LINK },
          schema: {
            operationId: 'unsubscribe',
            summary: 'One-click unsubscribe (RFC 8058)',
            description:
              "What a mail's `List-Unsubscribe` link answers to a POST of `List-Unsubscribe=One-Click` (form-encoded, as mail clients send it; the page's button sends the same): the token's category is turned off for its recipient on its channel. The token (signed, it never expires) is the authorisation. A required category is a 400.",
            querystring: UnsubscribeQuery,
            body: Type.Optional(UnsubscribeBody),
            response: responses({ 200: UnsubscribedSchema }),
          },
        },
        async (request) => {
          const what = tokenOf((request.query as { token: string }).token);
          if (config.requiredCategories.includes(what.category))
            throw new ApiError(
              'BAD_REQUEST',
              `category ${what.category} is required: it cannot be turned off`,
            );
          await setPreferences(db, what.recipient, [
            { category: what.category, channel: what.channel.toLowerCase(), enabled: false },
          ]);
          return ok({ ...what, recipient: what.recipient.toLowerCase(), enabled: false });
        },
      );
    }),
  );
};
