import type { EventRow } from '../database.js';

// The trail in OCSF (Open Cybersecurity Schema Framework, 1.1.0), what SIEMs ingest: each event
// an API Activity (class_uid 6003, category 6 Application Activity).
//
// | ledger event                      | OCSF                                                  |
// | --------------------------------- | ----------------------------------------------------- |
// | id                                | metadata.uid                                          |
// | seq, hash, prevHash               | metadata.sequence, unmapped.hash, unmapped.prev_hash  |
// | timestamp                         | time (ms since the epoch)                             |
// | action                            | api.operation                                         |
// | service                           | api.service.name                                      |
// | metadata.method (a change)        | activity_id: POST 1 Create, PUT/PATCH 3 Update,       |
// |                                   | DELETE 4 Delete; else from the action's verb           |
// |                                   | (`.created` 1, `.read` 2, `.updated` 3, `.deleted` 4), |
// |                                   | else 99 Other                                          |
// | metadata.outcome                  | status_id: succeeded 1 Success, unknown 0 Unknown;    |
// |                                   | an event without one (reported by a service) 1        |
// | actor, metadata.actorKind         | actor.user.uid/name, actor.user.type (User, or System |
// |                                   | for a service: type_id 3)                             |
// | resource                          | resources[0].uid                                      |
// | metadata.route, statusCode        | http_request.url.path, http_request.http_method;      |
// |                                   | api.response.code                                     |
// | metadata.requestId                | api.request.uid                                       |
// | everything else in metadata       | unmapped.metadata                                     |
// type_uid = 6003 * 100 + activity_id; severity_id 1 (Informational). An anonymized event's
// actor is absent, as in the ledger.

const ACTIVITY_BY_METHOD: Record<string, number> = { POST: 1, PUT: 3, PATCH: 3, DELETE: 4 };
const ACTIVITY_BY_VERB: Array<[RegExp, number]> = [
  [/(^|[._])(create|created|add|added)$/i, 1],
  [/(^|[._])(read|login|viewed)$/i, 2],
  [/(^|[._])(update|updated|changed|set)$/i, 3],
  [/(^|[._])(delete|deleted|revoke|revoked|removed)$/i, 4],
];
const NAMES: Record<number, string> = {
  0: 'Unknown',
  1: 'Create',
  2: 'Read',
  3: 'Update',
  4: 'Delete',
  99: 'Other',
};

function activityOf(event: EventRow): number {
  const method = typeof event.metadata.method === 'string' ? event.metadata.method : '';
  if (ACTIVITY_BY_METHOD[method]) return ACTIVITY_BY_METHOD[method];
  return ACTIVITY_BY_VERB.find(([verb]) => verb.test(event.action))?.[1] ?? 99;
}

export function toOcsf(event: EventRow) {
  const activity = activityOf(event);
  const { outcome, actorKind, method, route, statusCode, requestId, ...rest } =
    event.metadata as Record<string, unknown>;
  const service = actorKind === 'service';
  return {
    class_uid: 6003,
    class_name: 'API Activity',
    category_uid: 6,
    category_name: 'Application Activity',
    activity_id: activity,
    activity_name: NAMES[activity],
    type_uid: 6003 * 100 + activity,
    severity_id: 1,
    severity: 'Informational',
    time: event.timestamp.getTime(),
    status_id: outcome === 'unknown' ? 0 : 1,
    status: outcome === 'unknown' ? 'Unknown' : 'Success',
    metadata: {
      version: '1.1.0',
      uid: event.id,
      sequence: event.seq,
      product: { name: 'Platform audit trail', vendor_name: 'Platform' },
    },
    actor: event.actor
      ? {
          user: {
            uid: event.actor,
            name: event.actor,
            type_id: service ? 3 : 1,
            type: service ? 'System' : 'User',
          },
        }
      : {},
    api: {
      operation: event.action,
      service: { name: event.service ?? 'platform' },
      ...(typeof requestId === 'string' ? { request: { uid: requestId } } : {}),
      ...(typeof statusCode === 'number' ? { response: { code: statusCode } } : {}),
    },
    ...(event.resource ? { resources: [{ uid: event.resource }] } : {}),
    ...(typeof route === 'string' && typeof method === 'string'
      ? { http_request: { http_method: method, url: { path: route } } }
      : {}),
    // Required by the class; the platform knows the service, not the client's network address.
    src_endpoint: { name: event.service ?? 'platform' },
    cloud: { provider: 'Platform' },
    unmapped: {
      hash: event.hash,
      prev_hash: event.prev_hash,
      metadata: rest,
      details: event.details,
    },
  };
}
