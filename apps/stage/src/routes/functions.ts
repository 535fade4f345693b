import { badRequest, responses, Type, type Access } from '@platform/core';
import { checkPath } from '../domain/paths.js';
import { FUNCTION_NAMES, FUNCTIONS } from '../domain/functions.js';
import type { StageRoutes } from '../domain/state.js';
import { FunctionBody, FunctionParams } from '../schemas/functions.js';

// The caller's credentials and request id travel with the call, so it is checked and logged as
// the caller's own request to the route; so do the headers that made a cookie's write same-origin
// (this request passed that check: the call it makes is the same request).
const FORWARDED = [
  'cookie',
  'x-api-key',
  'authorization',
  'x-platform-identity',
  'x-request-id',
  'origin',
  'sec-fetch-site',
];

/**
 * Calling a function does nothing by itself: the route it calls decides, as the caller's own
 * request (its credentials travel with it), so a viewer or a read-only key may call the reads.
 */
const CALL: Access = {
  resource: 'stage.function',
  action: 'invoke',
  rule: 'viewer',
  scope: 'stage:read',
};

/** `POST /functions/:name` `{ args }`: a stage: function answers exactly what its route answers. */
export const functionRoutes: StageRoutes = async (app) => {
  app.post(
    '/functions/:name',
    {
      config: { access: CALL },
      schema: {
        operationId: 'callFunction',
        summary: 'Call a stage: backend function',
        description: `One of ${FUNCTION_NAMES.join(', ')}, with its arguments in \`args\`: sessionId (all session functions), path, content and optional encoding (writeFile; base64 for a binary file), path and optional version (readFile, which answers the bytes of a binary file; getFileHistory takes path), entry (triggerRender), optional label (createSnapshot), optional sessionId (listApps), sid (getApp, updateApp, which takes the PATCH fields beside it), scopes (setGoogleScopes). Answers exactly what the matching route answers (status, envelope, or the raw content for readFile; getAllFiles gives a binary file's content in base64 with \`encoding: 'base64'\`).`,
        params: FunctionParams,
        response: {
          ...responses({}),
          200: {
            description:
              "The function's answer: the matching route's envelope, or a file's content",
            content: { '*/*': { schema: Type.Unknown() } },
          },
        },
        body: FunctionBody,
      },
    },
    async (request, reply) => {
      const fn = FUNCTIONS[request.params.name];
      const args = request.body.args ?? {};
      for (const name of fn.required)
        if (args[name] === undefined || args[name] === null)
          throw badRequest(`${request.params.name} needs args.${name}`);
      // Ids go into the route's URL: `.` and `..` would name another route.
      for (const name of ['sessionId', 'sid'])
        if (args[name] === '.' || args[name] === '..')
          throw badRequest(`args.${name} is not a valid id`);
      // A path goes into the route's URL: checked here, so that `..` cannot name another route.
      if (args.path !== undefined) checkPath(args.path as string, 'args.path');
      const headers: Record<string, string> = {};
      for (const name of FORWARDED) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const prefix = request.url.slice(0, request.url.indexOf('/functions/'));
      const body = fn.body?.(args);
      const response = await app.inject({
        method: fn.method,
        url: prefix + fn.url(args),
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      const type = response.headers['content-type'];
      if (type) reply.type(String(type));
      for (const name of ['content-security-policy', 'x-file-version']) {
        const value = response.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply.code(response.statusCode).send(response.rawPayload);
    },
  );
};
