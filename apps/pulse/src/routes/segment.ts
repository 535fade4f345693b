import { named, type Access } from '@platform/core';
import { MAX_SENT_BYTES } from '../domain/ingest-body.js';
import { answerErrorsAs } from '../domain/ingest-errors.js';
import { ingest } from '../domain/ingest.js';
import {
  fromSegmentBatch,
  fromSegmentMessage,
  SEGMENT_TYPES,
  segmentBody,
  segmentKey,
} from '../domain/segment.js';
import {
  SegmentAcceptedSchema,
  SegmentBatchSchema,
  SegmentErrorSchema,
  SegmentMessageSchema,
} from '../schemas/segment.js';
import type { PulseRoutes } from '../domain/state.js';

export const SEGMENT_TAG = 'Segment-compatible';

/**
 * Segment's write key: a `pulse:ingest` key (write-only: safe in a browser) as the HTTP Basic user
 * (what Segment's libraries send), `writeKey` in the body, or X-API-Key; from pages on any site.
 */
const TRACK: Access = {
  resource: 'pulse.event',
  action: 'ingest',
  scope: 'pulse:ingest',
  keyFrom: ['basic-user', { body: segmentKey }],
  anyOrigin: true,
};

const answers = {
  200: SegmentAcceptedSchema,
  '4xx': SegmentErrorSchema,
  '5xx': SegmentErrorSchema,
};

const MAPPING =
  'Stored as pulse events named as PostHog names them (`track` keeps its event name; `page` `$pageview`, `screen` `$screen`, `identify` `$identify`, `group` `$groupidentify`, `alias` `$create_alias`), `userId` the userId (else the anonymousId), `messageId` as the stored id (a retry is stored once), the time by `timestamp` and `sentAt` (clock skew), the properties as sent plus `context` mapped to PostHog names (`$current_url`, `utm_*`, `$lib`, ...). identify sets person properties (traits) and merges the anonymousId\'s person; alias merges the previousId\'s. Answers `{"success":true}`; errors `{"success":false,"message"}` with a 4xx on bad input.';

const SUMMARIES: Record<(typeof SEGMENT_TYPES)[number], string> = {
  track: 'Track an event',
  identify: 'Identify a user, with traits',
  page: 'Record a page view',
  screen: 'Record a screen view',
  group: 'Associate a user with a group',
  alias: 'Merge a previous id into a user',
};

/**
 * Segment's Tracking API under `/segment/v1` (@segment/analytics-node: `host` the platform,
 * `path` `/api/v1/pulse/segment/v1/batch`): each method's route and `/batch`, in Segment's wire
 * format.
 */
export const segmentRoutes: PulseRoutes = async (app, { db, state }) => {
  await app.register(
    named(async (scope) => {
      answerErrorsAs(scope, 'segment');
      // JSON as analytics-node sends it; text/plain JSON as the browser library does; gzip.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_SENT_BYTES },
        (request, body, done) => {
          try {
            done(null, segmentBody(body, request));
          } catch (error) {
            done(error as Error, undefined);
          }
        },
      );

      scope.post(
        '/batch',
        {
          bodyLimit: MAX_SENT_BYTES,
          config: { access: TRACK },
          schema: {
            tags: [SEGMENT_TAG],
            operationId: 'segmentBatch',
            summary: 'Send a batch of messages (Segment-compatible)',
            description: `Segment \`POST /v1/batch\`: up to 1000 messages, 5 MiB; one bad message rejects the batch, naming it. ${MAPPING}`,
            body: SegmentBatchSchema,
            response: answers,
          },
        },
        async (request) => {
          await ingest(db, state, fromSegmentBatch(request.body, new Date()));
          return { success: true as const };
        },
      );

      for (const type of SEGMENT_TYPES)
        scope.post(
          `/${type}`,
          {
            config: { access: TRACK },
            schema: {
              tags: [SEGMENT_TAG],
              operationId: `segment${type[0].toUpperCase()}${type.slice(1)}`,
              summary: `${SUMMARIES[type]} (Segment-compatible)`,
              description: `Segment \`POST /v1/${type}\`. ${MAPPING}`,
              body: SegmentMessageSchema,
              response: answers,
            },
          },
          async (request) => {
            await ingest(db, state, fromSegmentMessage(request.body, type, new Date()));
            return { success: true as const };
          },
        );
    }),
    { prefix: '/segment/v1' },
  );
};
