// The `stage:` backend functions (spec 4.2): each one is a route of the sandbox, called as the
// caller's own request (routes/functions.ts).

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

/** Their names, as the route's parameter takes them. */
export const FUNCTION_NAMES = Object.keys(FUNCTIONS);
