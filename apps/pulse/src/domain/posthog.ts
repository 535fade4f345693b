import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest, newId } from '@platform/core';
import { decodeBody, MAX_REQUEST_EVENTS, storedId } from './ingest-body.js';
import {
  notInFuture,
  optionalObject,
  optionalText,
  optionalTime,
  requiredText,
  type Ingested,
} from './ingest.js';
import type { PersonChange } from './persons.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields that carry the project key: never stored with an event. */
const KEY_FIELDS = ['api_key', 'token'];

/** The body of a PostHog request: decoded when it is still bytes (the gateway's proxy). */
export function postHogBody(body: unknown, request: FastifyRequest): unknown {
  if (!Buffer.isBuffer(body)) return body;
  const query = request.query as { compression?: unknown } | undefined;
  return decodeBody(body, {
    contentType: request.headers['content-type'],
    contentEncoding: request.headers['content-encoding'] as string | undefined,
    compression: typeof query?.compression === 'string' ? query.compression : undefined,
  });
}

const keyIn = (value: unknown): string | undefined => {
  if (!isObject(value)) return undefined;
  for (const field of KEY_FIELDS)
    if (typeof value[field] === 'string' && value[field] !== '') return value[field];
  const properties = value.properties;
  return isObject(properties) && typeof properties.token === 'string' && properties.token !== ''
    ? properties.token
    : undefined;
};

/**
 * The project key of a PostHog request: the body's `api_key` (posthog-node, posthog-js's batches)
 * or `token`, else the first event's (`api_key`, `token` or `properties.token`, as posthog-js
 * sends single events).
 */
export function postHogKey(body: unknown, request: FastifyRequest): string | undefined {
  const decoded = postHogBody(body, request);
  if (Array.isArray(decoded)) return keyIn(decoded[0]);
  if (!isObject(decoded)) return undefined;
  return keyIn(decoded) ?? (Array.isArray(decoded.batch) ? keyIn(decoded.batch[0]) : undefined);
}

/** The events of a body: a batch (`{ batch: [...] }`), a list, or one event. */
function eventsOf(body: unknown): { events: unknown[]; sentAt?: unknown; historical: boolean } {
  if (Array.isArray(body)) return { events: body, historical: false };
  if (!isObject(body)) throw badRequest('The body must be an event, a list of events or a batch');
  const historical = body.historical_migration === true;
  if (body.batch !== undefined) {
    if (!Array.isArray(body.batch)) throw badRequest('batch must be a list of events');
    return { events: body.batch, sentAt: body.sent_at, historical };
  }
  if (Array.isArray(body.data)) return { events: body.data, sentAt: body.sent_at, historical };
  return { events: [body], sentAt: body.sent_at, historical };
}

/**
 * When the event happened, by PostHog's rules: `offset` (milliseconds before the request) wins;
 * else `timestamp`, moved by the sender's clock skew (`sent_at` against the time received) unless
 * the batch is a historical migration; else the time received.
 */
function timeOf(
  event: Json,
  where: string,
  now: Date,
  sentAt: Date | undefined,
  historical: boolean,
) {
  if (typeof event.offset === 'number' && Number.isFinite(event.offset))
    return new Date(now.getTime() - event.offset);
  const timestamp = optionalTime(event.timestamp, `${where}.timestamp`);
  if (!timestamp) return now;
  if (!sentAt || historical) return notInFuture(timestamp, now);
  return notInFuture(new Date(timestamp.getTime() + now.getTime() - sentAt.getTime()), now);
}

/** What the event does to its person: `$set`, `$set_once`, `$unset`, `$identify`, `$create_alias`. */
function personChange(
  name: string,
  event: Json,
  properties: Json,
  distinctId: string,
  where: string,
) {
  const change: PersonChange = { distinctId };
  const set = optionalObject(properties.$set ?? event.$set, `${where}.properties.$set`);
  const setOnce = optionalObject(
    properties.$set_once ?? event.$set_once,
    `${where}.properties.$set_once`,
  );
  const unset = properties.$unset;
  if (set) change.set = set;
  if (setOnce) change.setOnce = setOnce;
  if (Array.isArray(unset)) change.unset = unset.filter((k): k is string => typeof k === 'string');
  if (name === '$identify') {
    const anon = optionalText(
      properties.$anon_distinct_id,
      `${where}.properties.$anon_distinct_id`,
    );
    change.link = { kind: 'identify', other: anon ?? distinctId };
  } else if (name === '$create_alias') {
    const alias = requiredText(properties.alias, `${where}.properties.alias`);
    change.link = { kind: 'alias', other: alias };
  } else if (name === '$groupidentify')
    return undefined; // a group's, not a person's
  else if (properties.$process_person_profile === false && !set && !setOnce) return undefined;
  return change;
}

/** A PostHog request's events as pulse stores them; a 400 naming the first bad field. */
export function fromPostHog(body: unknown, now: Date): Ingested[] {
  const { events, sentAt: sent, historical } = eventsOf(body);
  if (events.length > MAX_REQUEST_EVENTS)
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `A request may carry at most ${MAX_REQUEST_EVENTS} events (${events.length} sent)`,
    );
  const sentAt = optionalTime(sent, 'sent_at');
  const many = Array.isArray(body) || (isObject(body) && body.batch !== undefined);
  return events.map((event, index) => {
    const where = many ? `batch[${index}]` : 'event';
    if (!isObject(event)) throw badRequest(`${where} must be an event (an object)`);
    const name = requiredText(event.event, `${where}.event`);
    const properties = { ...(optionalObject(event.properties, `${where}.properties`) ?? {}) };
    for (const field of KEY_FIELDS) delete properties[field];
    const distinctId = requiredText(
      event.distinct_id ?? properties.distinct_id ?? event.$distinct_id,
      `${where}.distinct_id`,
    );
    const uuid = optionalText(event.uuid, `${where}.uuid`);
    const session = properties.$session_id;
    return {
      event: {
        id: uuid ? storedId(uuid) : newId(),
        name,
        properties,
        user_id: distinctId,
        session_id:
          typeof session === 'string' && session !== '' && session.length <= 200 ? session : null,
        timestamp: timeOf(event, where, now, sentAt, historical),
      },
      person: personChange(name, event, properties, distinctId, where),
    };
  });
}
