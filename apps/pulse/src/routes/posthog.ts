import { named, newId, type Access } from '@platform/core';
import type { FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import { decodeBody, MAX_SENT_BYTES } from '../domain/ingest-body.js';
import { answerErrorsAs } from '../domain/ingest-errors.js';
import { ingest } from '../domain/ingest.js';
import { fromPostHog, postHogBody, postHogKey } from '../domain/posthog.js';
import {
  PostHogAcceptedSchema,
  PostHogBodySchema,
  PostHogConfigSchema,
  PostHogErrorSchema,
  PostHogFlagsSchema,
  PostHogQuery,
  PostHogTokenParams,
} from '../schemas/posthog.js';
import type { PulseRoutes } from '../domain/state.js';

export const POSTHOG_TAG = 'PostHog-compatible';

/**
 * Capturing: a `pulse:ingest` key (write-only: safe in a browser) in the body, as PostHog's
 * libraries send their project key, or in X-API-Key; from pages on any site.
 */
const CAPTURE: Access = {
  resource: 'pulse.event',
  action: 'ingest',
  scope: 'pulse:ingest',
  keyFrom: [{ body: postHogKey }],
  anyOrigin: true,
};
/** What posthog-js asks at start-up: constant answers that read nothing, to anyone. */
const STARTUP: Access = {
  resource: 'pulse.config',
  action: 'read',
  rule: 'public',
  anyOrigin: true,
};

const answers = <T>(ok: T) => ({ 200: ok, '4xx': PostHogErrorSchema, '5xx': PostHogErrorSchema });

const CAPTURE_PATHS = [
  ['/e/', 'posthogCapture', 'posthog-js: events (one, a list, or a batch)'],
  ['/i/v0/e/', 'posthogCaptureV0', "posthog-js's newer capture path"],
  ['/capture/', 'posthogCaptureSingle', 'One event (the HTTP API)'],
  ['/batch/', 'posthogBatch', 'posthog-node and the HTTP API: `{ api_key, batch: [...] }`'],
  ['/track/', 'posthogTrack', "Older libraries' capture path"],
] as const;

const CAPTURE_DESCRIPTION =
  'PostHog capture: events stored as pulse events (`name` the event, `userId` the distinct id, `sessionId` `$session_id`, the properties as sent without `token`), `uuid` as the stored id (a retry is stored once), the time by PostHog\'s `timestamp`/`offset`/`sent_at` rules; `$identify`, `$create_alias`, `$set`, `$set_once` and `$unset` change persons. The key is `api_key` (or `token`, or `properties.token`) in the body. Answers `{"status":1}`; errors in PostHog\'s shape (`type`, `code`, `detail`), 4xx on bad input. At most 1000 events, 5 MiB as sent, 20 MiB decoded.';

const codingOf = (request: FastifyRequest) => {
  const query = request.query as { compression?: unknown } | undefined;
  return {
    contentType: request.headers['content-type'],
    contentEncoding: request.headers['content-encoding'] as string | undefined,
    // The query is not parsed yet when the body is: read from the URL.
    compression:
      typeof query?.compression === 'string'
        ? query.compression
        : (new URLSearchParams(request.url.split('?')[1] ?? '').get('compression') ?? undefined),
  };
};

/**
 * PostHog's capture API under `/posthog` (point posthog-js's `api_host` or posthog-node's `host`
 * there): its wire format in, PostHog's answers out; and the minimal start-up answers of
 * posthog-js (remote config, flags: none).
 */
export const postHogRoutes: PulseRoutes = async (app, { db, state }) => {
  await app.register(
    named(async (scope) => {
      answerErrorsAs(scope, 'posthog');
      // PostHog's paths end in a slash, which the API's style does not allow: each is documented
      // without it, and answered with it too (hidden: the same operation), as the libraries call.
      const post = (path: string, options: RouteShorthandOptions, handler: RouteHandlerMethod) => {
        scope.post(path.replace(/\/$/, ''), options, handler);
        const schema = options.schema as { operationId: string };
        scope.post(
          path,
          {
            ...options,
            schema: { ...schema, operationId: `${schema.operationId}Slash`, hide: true },
          },
          handler,
        );
      };
      // Bodies as the libraries send them: gzip, form-encoded base64 or lz64, text/plain or JSON.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_SENT_BYTES },
        (request, body, done) => {
          try {
            done(null, decodeBody(body as Buffer, codingOf(request)));
          } catch (error) {
            done(error as Error, undefined);
          }
        },
      );

      for (const [path, operationId, summary] of CAPTURE_PATHS)
        post(
          path,
          {
            bodyLimit: MAX_SENT_BYTES,
            config: { access: CAPTURE },
            schema: {
              tags: [POSTHOG_TAG],
              operationId,
              summary: `${summary} (PostHog-compatible)`,
              description: CAPTURE_DESCRIPTION,
              querystring: PostHogQuery,
              body: PostHogBodySchema,
              response: answers(PostHogAcceptedSchema),
            },
          },
          async (request) => {
            await ingest(db, state, fromPostHog(postHogBody(request.body, request), new Date()));
            return { status: 1 as const };
          },
        );

      for (const [path, operationId] of [
        ['/flags/', 'posthogFlags'],
        ['/decide/', 'posthogDecide'],
      ] as const)
        post(
          path,
          {
            config: { access: STARTUP },
            schema: {
              tags: [POSTHOG_TAG],
              operationId,
              summary: 'Feature flags: none (PostHog-compatible)',
              description:
                'What posthog-js and posthog-node ask for flags: pulse has none, so every answer is empty. Reads nothing.',
              querystring: PostHogQuery,
              body: PostHogBodySchema,
              response: answers(PostHogFlagsSchema),
            },
          },
          async () => ({
            flags: {},
            featureFlags: {},
            featureFlagPayloads: {},
            errorsWhileComputingFlags: false,
            requestId: newId(16),
          }),
        );

      scope.get(
        '/array/:token/config',
        {
          config: { access: STARTUP },
          schema: {
            tags: [POSTHOG_TAG],
            operationId: 'posthogRemoteConfig',
            summary: 'Remote config of posthog-js (PostHog-compatible)',
            description:
              'What posthog-js loads at start-up: gzip supported, no feature flags, capture at `/e/`; nothing else is on (no recordings, surveys or site apps). The same for every key; reads nothing.',
            params: PostHogTokenParams,
            querystring: PostHogQuery,
            response: answers(PostHogConfigSchema),
          },
        },
        async (request) => ({
          token: (request.params as { token: string }).token,
          supportedCompression: ['gzip', 'gzip-js'],
          hasFeatureFlags: false,
          analytics: { endpoint: '/e/' },
          autocapture_opt_out: false,
          sessionRecording: false,
          heatmaps: false,
          surveys: false,
          siteApps: [],
        }),
      );
    }),
    { prefix: '/posthog' },
  );
};
