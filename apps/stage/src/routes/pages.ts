import { posix } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Type, type Access, type ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase, StageDb } from '../database.js';
import { checkPath, contentType } from '../paths.js';
import { findAppBySid } from '../repositories/apps.js';
import { readFile } from '../repositories/files.js';
import { findRender } from '../repositories/renders.js';
import { findSessionOwnership, useSession } from '../repositories/sessions.js';

/**
 * Every page and file of a preview or an app runs sandboxed: an opaque origin (no cookies, no
 * storage, no DOM of the platform's pages) that may load only its own scripts, styles, images
 * and fonts, and may not fetch, frame or post anywhere, so it cannot reach the platform's API.
 */
export const PREVIEW_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-scripts allow-forms allow-modals allow-popups',
].join('; ');

const BUNDLE = '__render/bundle';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function generatedPage(title: string, version: number, css: boolean) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
${css ? `<link rel="stylesheet" href="${BUNDLE}.css?v=${version}">\n` : ''}</head>
<body>
<div id="root"></div>
<script src="${BUNDLE}.js?v=${version}"></script>
</body>
</html>
`;
}

/** `<script src=...></script>` tags naming `entry`, found by a linear scan (no backtracking). */
function withoutEntryScripts(html: string, root: string, entry: string): string {
  const lower = html.toLowerCase();
  let out = '';
  let at = 0;
  for (let open = lower.indexOf('<script', at); open !== -1; open = lower.indexOf('<script', at)) {
    const tagEnd = lower.indexOf('>', open);
    const close = tagEnd === -1 ? -1 : lower.indexOf('</script>', tagEnd);
    if (close === -1) break;
    const end = close + '</script>'.length;
    const src = /\ssrc\s*=\s*["']([^"']*)["']/i.exec(html.slice(open, tagEnd + 1))?.[1];
    const namesEntry = src !== undefined && posix.join(root, src.split('?')[0]) === entry;
    out += html.slice(at, namesEntry ? open : end);
    at = end;
  }
  return out + html.slice(at);
}

/**
 * The session's own index.html, loading the render: a script tag of the entry itself (as Vite
 * writes one) is dropped, and the bundle is added at the end of the head, deferred.
 */
function ownPage(html: string, root: string, entry: string, version: number, css: boolean) {
  const withoutEntry = withoutEntryScripts(html, root, entry);
  const tags = `${css ? `<link rel="stylesheet" href="${BUNDLE}.css?v=${version}">` : ''}<script defer src="${BUNDLE}.js?v=${version}"></script>`;
  const head = withoutEntry.toLowerCase().indexOf('</head>');
  return head === -1
    ? tags + withoutEntry
    : withoutEntry.slice(0, head) + tags + withoutEntry.slice(head);
}

function sendPage(reply: FastifyReply, status: number, type: string, body: string) {
  return (
    reply
      .code(status)
      .type(type)
      .header('content-security-policy', PREVIEW_CSP)
      // The page runs sandboxed (an opaque origin): to it, its own bundle is cross-origin. The files
      // are served to whoever has the address already, so no origin is kept out by saying so.
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'no-cache')
      .send(body)
  );
}

const notice = (reply: FastifyReply, status: number, message: string) =>
  sendPage(
    reply,
    status,
    'text/html; charset=utf-8',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(message)}</title></head><body><p>${escape(message)}</p></body></html>`,
  );

// What a platform page would fetch to run or style itself with a session's code.
const SUBRESOURCES = new Set(['script', 'style', 'worker', 'sharedworker', 'serviceworker']);

/** Serves `rest` (the path after /preview/<id>/ or /app/<sid>/) from a session's last render. */
async function serve(
  db: StageDb,
  request: FastifyRequest,
  reply: FastifyReply,
  sessionId: string,
  rest: string,
  title: string,
) {
  // The page itself is at `./`, behind sign-in like every page; not at a public address.
  if (rest === 'index.html') return reply.redirect('./', 302);
  // A sandboxed page's requests come from an opaque origin (cross-site). Session code pulled in
  // by a page of the platform's own origin would run with the platform's privileges: refused.
  if (
    request.headers['sec-fetch-site'] === 'same-origin' &&
    SUBRESOURCES.has(String(request.headers['sec-fetch-dest']))
  )
    return notice(reply, 403, 'Session code runs only in its own sandboxed page');
  try {
    await useSession(db, sessionId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND')
      return notice(reply, 404, `No session ${sessionId}`);
    throw error;
  }
  const render = await findRender(db, sessionId);
  if (!render?.js || render.root === null)
    return notice(reply, 404, `Nothing rendered yet: render the session ${sessionId} first`);
  if (rest === '') {
    const css = render.css !== null;
    try {
      const own = await readFile(db, sessionId, posix.join(render.root, 'index.html'));
      return sendPage(
        reply,
        200,
        'text/html; charset=utf-8',
        ownPage(own.content, render.root, render.output_entry ?? '', render.version, css),
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'NOT_FOUND') throw error;
      return sendPage(
        reply,
        200,
        'text/html; charset=utf-8',
        generatedPage(title, render.version, css),
      );
    }
  }
  if (rest === `${BUNDLE}.js`)
    return sendPage(reply, 200, 'text/javascript; charset=utf-8', render.js);
  if (rest === `${BUNDLE}.css` && render.css !== null)
    return sendPage(reply, 200, 'text/css; charset=utf-8', render.css);
  try {
    // Checked before it is joined: `..` must not climb out of the page's folder.
    const path = posix.join(render.root, checkPath(`/${rest}`));
    const file = await readFile(db, sessionId, path);
    return sendPage(reply, 200, contentType(path), file.content);
  } catch (error) {
    if (error instanceof ApiError && ['NOT_FOUND', 'BAD_REQUEST'].includes(error.code))
      return notice(reply, 404, `No file /${rest} in this preview`);
    throw error;
  }
}

const Key = Type.String({ minLength: 1, maxLength: 100 });
const pageSchema = { hide: true, params: Type.Object({ key: Key }) };
// Files and the bundle are fetched by a sandboxed page, which has no cookies to send: like the
// page's own address, knowing the session id (or sid) is what grants them.
const asset = (resource: string) => ({
  schema: { hide: true, params: Type.Object({ key: Key, '*': Type.String() }) },
  config: { access: { resource, action: 'read', rule: 'public' } as Access },
});

/** A published app's pages are shared: any signed-in caller. */
const APP_PAGE: Access = { resource: 'stage.app', action: 'read' };

/** `/preview/<session id>/`: the last good render of a session, as a page. */
export const previewRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  // A preview is the session's: its owners, collaborators, team and admins.
  const PREVIEW: Access = {
    resource: 'stage.session',
    action: 'read',
    rule: 'owner',
    owner: (request) => findSessionOwnership(db, (request.params as { key?: unknown }).key),
  };
  const page = { schema: pageSchema, config: { access: PREVIEW } };
  app.get('/:key', page, async (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 302),
  );
  const title = (key: string) => `Preview of ${key}`;
  app.get('/:key/', page, async (request, reply) =>
    serve(db, request, reply, request.params.key, '', title(request.params.key)),
  );
  app.get('/:key/*', asset('stage.preview'), async (request, reply) =>
    serve(db, request, reply, request.params.key, request.params['*'], title(request.params.key)),
  );
};

/**
 * `/app/<sid>/`: the frontend of a published app, the last good render of the session it serves.
 * By sid only: a name could be guessed, and the app's files are served by address.
 */
export const appPageRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  const page = { schema: pageSchema, config: { access: APP_PAGE } };
  app.get('/:key', page, async (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 302),
  );
  const serveApp = async (request: FastifyRequest, reply: FastifyReply, rest: string) => {
    const { key } = request.params as { key: string };
    const found = await findAppBySid(db, key);
    if (!found) return notice(reply, 404, `No app ${key}`);
    return serve(db, request, reply, found.session_id, rest, found.title ?? found.name);
  };
  app.get('/:key/', page, async (request, reply) => serveApp(request, reply, ''));
  app.get('/:key/*', asset('stage.app'), async (request, reply) =>
    serveApp(request, reply, request.params['*']),
  );
};
