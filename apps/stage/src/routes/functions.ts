import { badRequest, responses, Type, type Access, type ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase } from '../database.js';
import { checkPath } from '../paths.js';

type Args = Record<string, unknown>;
interface Fn {
  /** Arguments that must be given (strings unless the route says otherwise). */
  required: readonly string[];
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  url: (args: Args) => string;
  body?: (args: Args) => unknown;
}

const at = (value: unknown) => encodeURIComponent(String(value));
const session = (args: Args) => `/sessions/${at(args.sessionId)}`;
/** A file path as the route's wildcard takes it: each segment escaped, the leading / dropped. */
const filePath = (path: unknown) =>
  String(path).split('/').slice(1).map(encodeURIComponent).join('/');
const query = (values: Record<string, unknown>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values))
    if (value !== undefined && value !== null) search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
const without = (args: Args, ...keys: string[]) =>
  Object.fromEntries(Object.entries(args).filter(([key]) => !keys.includes(key)));

/** The `stage:` backend functions (spec 4.2) and the route each one is. */
export const FUNCTIONS: Record<string, Fn> = {
  createSession: { required: [], method: 'POST', url: () => '/sessions' },
  writeFile: {
    required: ['sessionId', 'path', 'content'],
    method: 'POST',
    url: (a) => `${session(a)}/push`,
    // With `encoding` (base64 for bytes), the file goes as `{ content, encoding }`.
    body: (a) => ({
      files: {
        [String(a.path)]:
          a.encoding === undefined ? a.content : { content: a.content, encoding: a.encoding },
      },
    }),
  },
  readFile: {
    required: ['sessionId', 'path'],
    method: 'GET',
    url: (a) => `${session(a)}/files/${filePath(a.path)}${query({ version: a.version })}`,
  },
  getAllFiles: {
    required: ['sessionId'],
    method: 'GET',
    url: (a) => `${session(a)}/files?content=true`,
  },
  triggerRender: {
    required: ['sessionId', 'entry'],
    method: 'POST',
    url: (a) => `${session(a)}/render`,
    body: (a) => ({ entry: a.entry }),
  },
  getRenderState: { required: ['sessionId'], method: 'GET', url: (a) => `${session(a)}/render` },
  getStatus: { required: ['sessionId'], method: 'GET', url: (a) => `${session(a)}/status` },
  createSnapshot: {
    required: ['sessionId'],
    method: 'POST',
    url: (a) => `${session(a)}/snapshots`,
    body: (a) => (a.label === undefined ? {} : { label: a.label }),
  },
  getSnapshots: { required: ['sessionId'], method: 'GET', url: (a) => `${session(a)}/snapshots` },
  getFileHistory: {
    required: ['sessionId', 'path'],
    method: 'GET',
    url: (a) => `${session(a)}/history${query({ path: a.path })}`,
  },
  listApps: {
    required: [],
    method: 'GET',
    url: (a) => `/apps${query({ sessionId: a.sessionId })}`,
  },
  getApp: { required: ['sid'], method: 'GET', url: (a) => `/apps/${at(a.sid)}` },
  getAppBySession: { required: ['sessionId'], method: 'GET', url: (a) => `${session(a)}/app` },
  updateApp: {
    required: ['sid'],
    method: 'PATCH',
    url: (a) => `/apps/${at(a.sid)}`,
    body: (a) => without(a, 'sid'),
  },
  setGoogleScopes: {
    required: ['sessionId', 'scopes'],
    method: 'PUT',
    url: (a) => `${session(a)}/google-scopes`,
    body: (a) => ({ scopes: a.scopes }),
  },
  getGoogleScopes: {
    required: ['sessionId'],
    method: 'GET',
    url: (a) => `${session(a)}/google-scopes`,
  },
};

const NAMES = Object.keys(FUNCTIONS);

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
export const functionRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app) => {
  app.post(
    '/functions/:name',
    {
      config: { access: CALL },
      schema: {
        operationId: 'callFunction',
        summary: 'Call a stage: backend function',
        description: `One of ${NAMES.join(', ')}, with its arguments in \`args\`: sessionId (all session functions), path, content and optional encoding (writeFile; base64 for a binary file), path and optional version (readFile, which answers the bytes of a binary file; getFileHistory takes path), entry (triggerRender), optional label (createSnapshot), optional sessionId (listApps), sid (getApp, updateApp, which takes the PATCH fields beside it), scopes (setGoogleScopes). Answers exactly what the matching route answers (status, envelope, or the raw content for readFile; getAllFiles gives a binary file's content in base64 with \`encoding: 'base64'\`).`,
        params: Type.Object({ name: Type.Union(NAMES.map((n) => Type.Literal(n))) }),
        response: {
          ...responses({}),
          200: {
            description:
              "The function's answer: the matching route's envelope, or a file's content",
            content: { '*/*': { schema: Type.Unknown() } },
          },
        },
        body: Type.Object({
          args: Type.Optional(
            Type.Record(Type.String(), Type.Unknown(), { description: "The function's arguments" }),
          ),
        }),
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
