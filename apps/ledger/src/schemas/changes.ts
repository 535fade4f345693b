import { Nullable, Type, type Static } from '@platform/core';

// The changes the services' audit outboxes deliver (libs/core/src/audit): one event per
// state-changing request, recorded once per id.

export const ChangeSchema = Type.Object({
  id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: "The outbox row's id: the event's id, recorded once whatever the redeliveries",
  }),
  action: Type.String({ minLength: 1, maxLength: 200, description: '`<service>.<operationId>`' }),
  actor: Nullable(
    Type.String({ maxLength: 320, description: 'An email, `key:<name>`, a service' }),
  ),
  actorKind: Type.Union(
    ['user', 'key', 'service', 'anonymous'].map((k) => Type.Literal(k)),
    { description: 'What the actor is' },
  ),
  resource: Nullable(Type.String({ maxLength: 500, description: 'The id of what it changed' })),
  service: Type.String({ minLength: 1, maxLength: 100 }),
  outcome: Type.Union([Type.Literal('succeeded'), Type.Literal('unknown')], {
    description:
      '`unknown`: the process stopped between the change and its answer (delivered after a grace period)',
  }),
  statusCode: Nullable(Type.Integer({ minimum: 100, maximum: 599 })),
  method: Type.String({ minLength: 1, maxLength: 10 }),
  route: Type.String({ maxLength: 500, description: "The route's template" }),
  requestId: Type.String({ maxLength: 200 }),
  timestamp: Type.String({ format: 'date-time' }),
});
export type Change = Static<typeof ChangeSchema>;

export const ChangesInputSchema = Type.Object({
  events: Type.Array(ChangeSchema, { minItems: 1, maxItems: 500 }),
});

export const ChangesResultSchema = Type.Object({
  received: Type.Integer({ description: 'Events in the request' }),
  appended: Type.Integer({
    description: 'Those not recorded before (the others were redeliveries)',
  }),
});
