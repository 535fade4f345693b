import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { ApiError } from '@platform/core';

/** One smart HTTP request as `git http-backend` (a CGI program) is told it. */
export interface CgiRequest {
  /** GIT_PROJECT_ROOT: the folder the repository's path is under. */
  projectRoot: string;
  /** `/<path under the root>/info/refs`, `/…/git-upload-pack`, `/…/git-receive-pack`. */
  pathInfo: string;
  method: string;
  query: string;
  contentType?: string;
  /** `gzip` when git compressed the request body. */
  contentEncoding?: string;
  /** Absent for a chunked body: http-backend then reads to the end. */
  contentLength?: string;
  /** The `Git-Protocol` header (`version=2`). */
  gitProtocol?: string;
  /** Who pushes (http-backend refuses receive-pack without one). */
  remoteUser: string;
  /** The request body, streamed to the child's stdin (never held in memory). */
  body?: Readable;
  /** Pushes: git's hooks folder (core.hooksPath) and what the hooks are told in their env. */
  hooks?: { dir: string; env: Record<string, string> };
  /** Run once the child has exited, before the reply ends (a push is recorded there). */
  afterExit?: (code: number | null) => Promise<void>;
  /** Called with a line of what git wrote to stderr, at most 4 KiB in all. */
  log?: (stderr: string) => void;
}

export interface CgiReply {
  status: number;
  headers: Record<string, string>;
  body: PassThrough;
}

const MAX_HEADER_BYTES = 64 * 1024;

function parseHeaders(text: string) {
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'status') status = Number.parseInt(value, 10) || 500;
    else headers[name] = value;
  }
  return { status, headers };
}

/**
 * Runs `git http-backend` for one request: the body streams into its stdin, its CGI headers are
 * parsed, and the rest of its stdout streams into the reply's body. A child that cannot start or
 * dies before answering is a 502; a client that hangs up kills the child (git then removes what
 * it had received: nothing half-written shows).
 */
export function runHttpBackend(request: CgiRequest): Promise<CgiReply> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: request.projectRoot,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_PROJECT_ROOT: request.projectRoot,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: request.pathInfo,
    QUERY_STRING: request.query,
    REQUEST_METHOD: request.method,
    REMOTE_USER: request.remoteUser,
    REMOTE_ADDR: '127.0.0.1',
    // Pushing is decided by the platform before the child runs: git's own switch stays on.
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.receivepack',
    GIT_CONFIG_VALUE_0: 'true',
  };
  if (request.contentType) env.CONTENT_TYPE = request.contentType;
  if (request.contentLength) env.CONTENT_LENGTH = request.contentLength;
  if (request.contentEncoding) env.HTTP_CONTENT_ENCODING = request.contentEncoding;
  if (request.gitProtocol) env.GIT_PROTOCOL = request.gitProtocol;
  if (request.hooks) {
    Object.assign(env, request.hooks.env);
    env.GIT_CONFIG_COUNT = '2';
    env.GIT_CONFIG_KEY_1 = 'core.hooksPath';
    env.GIT_CONFIG_VALUE_1 = request.hooks.dir;
  }

  const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const body = new PassThrough();
  let stderrBytes = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderrBytes > 4096) return;
    stderrBytes += chunk.length;
    request.log?.(chunk.toString('utf8').trim());
  });
  // The child's stdin closes early when git refuses the request: not an error of ours.
  child.stdin.on('error', () => undefined);
  if (request.body) {
    // A client that hangs up mid-pack: the child is stopped (git drops what it had received).
    const body = request.body;
    body.on('error', () => child.kill('SIGTERM'));
    body.on('close', () => {
      if (!body.readableEnded) child.kill('SIGTERM');
    });
    request.body.pipe(child.stdin);
  } else child.stdin.end();
  body.on('close', () => {
    if (child.exitCode === null && !body.writableFinished) child.kill('SIGTERM');
  });

  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise<CgiReply>((resolve, reject) => {
    let head = Buffer.alloc(0);
    let answered = false;
    child.on('error', (error) =>
      reject(new ApiError('BAD_GATEWAY', `git http-backend could not start: ${error.message}`)),
    );
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
      if (end < 0) {
        if (head.length > MAX_HEADER_BYTES) {
          child.kill('SIGTERM');
          reject(new ApiError('BAD_GATEWAY', 'git http-backend answered headers too long'));
        }
        return;
      }
      child.stdout.off('data', onData);
      answered = true;
      const { status, headers } = parseHeaders(head.subarray(0, end).toString('latin1'));
      body.write(head.subarray(end));
      child.stdout.pipe(body, { end: false });
      resolve({ status, headers, body });
    };
    child.stdout.on('data', onData);
    // What runs after the child is never an unhandled rejection (it would stop the process).
    const afterExit = (code: number | null) =>
      (request.afterExit?.(code) ?? Promise.resolve()).catch((error: unknown) =>
        request.log?.(`after git http-backend: ${(error as Error)?.message ?? String(error)}`),
      );
    void exited.then(async (code) => {
      if (!answered) {
        reject(new ApiError('BAD_GATEWAY', `git http-backend ended without an answer (${code})`));
        await afterExit(code);
        return;
      }
      await new Promise((done) =>
        child.stdout.readableEnded ? done(null) : child.stdout.once('end', done),
      );
      await afterExit(code);
      body.end();
    });
  });
}
