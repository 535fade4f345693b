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

export const SEGMENT_TYPES = ['track', 'identify', 'page', 'screen', 'group', 'alias'] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body of a Segment request: decoded when it is still bytes (the gateway's proxy). */
export function segmentBody(body: unknown, request: FastifyRequest): unknown {
  if (!Buffer.isBuffer(body)) return body;
  return decodeBody(body, {
    contentType: request.headers['content-type'],
    contentEncoding: request.headers['content-encoding'] as string | undefined,
  });
}

/** The write key in the body (`writeKey`), for clients that do not send it as HTTP Basic. */
export function segmentKey(body: unknown, request: FastifyRequest): string | undefined {
  const decoded = segmentBody(body, request);
  return isObject(decoded) && typeof decoded.writeKey === 'string' && decoded.writeKey !== ''
    ? decoded.writeKey
    : undefined;
}

/** Segment's method names as PostHog's events, as PostHog's own Segment destination names them. */
const EVENT_NAMES: Record<Exclude<SegmentType, 'track'>, string> = {
  page: '$pageview',
  screen: '$screen',
  identify: '$identify',
  group: '$groupidentify',
  alias: '$create_alias',
};

/** `context` fields as PostHog's property names (see the README); the event's own win. */
function contextProperties(context: Json): Json {
  const out: Json = {};
  const put = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') out[name] = value;
  };
  const page = isObject(context.page) ? context.page : {};
  put('$current_url', page.url);
  put('$pathname', page.path);
  put('$referrer', page.referrer);
  put('title', page.title);
  const campaign = isObject(context.campaign) ? context.campaign : {};
  for (const field of ['source', 'medium', 'term', 'content']) put(`utm_${field}`, campaign[field]);
  put('utm_campaign', campaign.name);
  put('$raw_user_agent', context.userAgent);
  put('$ip', context.ip);
  put('$locale', context.locale);
  put('$timezone', context.timezone);
  const library = isObject(context.library) ? context.library : {};
  put('$lib', library.name);
  put('$lib_version', library.version);
  const os = isObject(context.os) ? context.os : {};
  put('$os', os.name);
  put('$os_version', os.version);
  const device = isObject(context.device) ? context.device : {};
  put('$device_type', device.type);
  put('$device_id', device.id);
  const screen = isObject(context.screen) ? context.screen : {};
  put('$screen_width', screen.width);
  put('$screen_height', screen.height);
  const app = isObject(context.app) ? context.app : {};
  put('$app_name', app.name);
  put('$app_version', app.version);
  return out;
}

/**
 * When it happened, as Segment corrects it: `timestamp` (else `originalTimestamp`) moved by the
 * sender's clock skew when `sentAt` came (`receivedAt - (sentAt - timestamp)`); else received.
 */
function timeOf(message: Json, where: string, now: Date, batchSentAt: Date | undefined) {
  const sentAt = optionalTime(message.sentAt, `${where}.sentAt`) ?? batchSentAt;
  const given = optionalTime(message.timestamp, `${where}.timestamp`);
  const original = optionalTime(message.originalTimestamp, `${where}.originalTimestamp`);
  const time = given ?? original;
  if (!time) return now;
  if (!sentAt) return notInFuture(time, now);
  return notInFuture(new Date(now.getTime() - (sentAt.getTime() - time.getTime())), now);
}

function convert(
  message: Json,
  type: SegmentType,
  where: string,
  now: Date,
  batch: Json,
): Ingested {
  const userId = optionalText(message.userId, `${where}.userId`);
  const anonymousId = optionalText(message.anonymousId, `${where}.anonymousId`);
  const distinctId = userId ?? anonymousId;
  if (!distinctId) throw badRequest(`${where}: userId or anonymousId is required`);
  const context = {
    ...(optionalObject(batch.context, 'context') ?? {}),
    ...(optionalObject(message.context, `${where}.context`) ?? {}),
  };
  const sent = optionalObject(message.properties, `${where}.properties`) ?? {};
  const traits = optionalObject(message.traits, `${where}.traits`);
  const properties: Json = { ...contextProperties(context), ...sent };
  const person: PersonChange = { distinctId: distinctId };
  let name: string;
  if (type === 'track') name = requiredText(message.event, `${where}.event`);
  else name = EVENT_NAMES[type];
  if (type === 'page' || type === 'screen') {
    const title = optionalText(message.name, `${where}.name`);
    if (title) properties[type === 'page' ? 'name' : '$screen_name'] = title;
    if (type === 'page' && typeof sent.url === 'string') properties.$current_url = sent.url;
  } else if (type === 'identify') {
    if (traits) properties.$set = traits;
    if (traits) person.set = traits;
    if (userId && anonymousId && anonymousId !== userId) {
      properties.$anon_distinct_id = anonymousId;
      person.link = { kind: 'identify', other: anonymousId };
    } else if (userId) person.link = { kind: 'identify', other: userId };
  } else if (type === 'group') {
    const groupId = requiredText(message.groupId, `${where}.groupId`);
    Object.assign(properties, { $group_type: 'group', $group_key: groupId });
    if (traits) properties.$group_set = traits;
  } else if (type === 'alias') {
    if (!userId) throw badRequest(`${where}.userId is required for an alias`);
    const previousId = requiredText(message.previousId, `${where}.previousId`);
    Object.assign(properties, { alias: previousId, distinct_id: userId });
    person.link = { kind: 'alias', other: previousId };
  }
  const messageId = optionalText(message.messageId, `${where}.messageId`);
  const session = context.sessionId ?? sent.$session_id;
  return {
    event: {
      id: messageId ? storedId(messageId) : newId(),
      name: name,
      properties: properties,
      user_id: person.distinctId,
      session_id:
        typeof session === 'string' && session !== '' && session.length <= 200 ? session : null,
      timestamp: timeOf(message, where, now, optionalTime(batch.sentAt, 'sentAt')),
    },
    person,
  };
}

const typeOf = (value: unknown, where: string): SegmentType => {
  if (typeof value === 'string' && (SEGMENT_TYPES as readonly string[]).includes(value))
    return value as SegmentType;
  throw badRequest(`${where}.type must be one of ${SEGMENT_TYPES.join(', ')}`);
};

/** One message of a method's route (`/v1/track`, ...): its type is the route's. */
export function fromSegmentMessage(body: unknown, type: SegmentType, now: Date): Ingested[] {
  if (!isObject(body)) throw badRequest('The body must be a message (an object)');
  return [convert(body, type, 'message', now, { sentAt: body.sentAt })];
}

/** A `/v1/batch` body: `{ batch: [...], context?, sentAt? }`, each message with its `type`. */
export function fromSegmentBatch(body: unknown, now: Date): Ingested[] {
  if (!isObject(body) || !Array.isArray(body.batch))
    throw badRequest('The body must be a batch: { "batch": [messages] }');
  if (body.batch.length > MAX_REQUEST_EVENTS)
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `A batch may carry at most ${MAX_REQUEST_EVENTS} messages (${body.batch.length} sent)`,
    );
  return body.batch.map((message, index) => {
    const where = `batch[${index}]`;
    if (!isObject(message)) throw badRequest(`${where} must be a message (an object)`);
    return convert(message, typeOf(message.type, where), where, now, body);
  });
}
