import { posix } from 'node:path';
import type { FastifyReply } from 'fastify';
import { ApiError, Type, type ServiceRoutes } from '@platform/core';
import type { StageConfig } from '../config.js';
import type { StageDatabase, StageDb } from '../database.js';
import { checkPath, contentType } from '../paths.js';
import { findApp } from '../repositories/apps.js';
import { readFile } from '../repositories/files.js';
import { findRender } from '../repositories/renders.js';
import { useSession } from '../repositories/sessions.js';

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

/**
 * The session's own index.html, loading the render: a script tag of the entry itself (as Vite
 * writes one) is dropped, and the bundle is added at the end of the head, deferred.
 */
function ownPage(html: string, root: string, entry: string, version: number, css: boolean) {
  const withoutEntry = html.replace(
    /<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*>\s*<\/script>/gi,
    (tag, src: string) => (posix.join(root, src.split('?')[0]) === entry ? '' : tag),
  );
  const tags = `${css ? `<link rel="stylesheet" href="${BUNDLE}.css?v=${version}">` : ''}<script defer src="${BUNDLE}.js?v=${version}"></script>`;
  return /<\/head>/i.test(withoutEntry)
    ? withoutEntry.replace(/<\/head>/i, `${tags}</head>`)
    : tags + withoutEntry;
}

function sendPage(reply: FastifyReply, status: number, type: string, body: string) {
  return reply
    .code(status)
    .type(type)
    .header('content-security-policy', PREVIEW_CSP)
    .header('cache-control', 'no-cache')
    .send(body);
}

const notice = (reply: FastifyReply, status: number, message: string) =>
  sendPage(
    reply,
    status,
    'text/html; charset=utf-8',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(message)}</title></head><body><p>${escape(message)}</p></body></html>`,
  );

/** Serves `rest` (the path after /preview/<id>/ or /app/<sid>/) from a session's last render. */
async function serve(
  db: StageDb,
  reply: FastifyReply,
  sessionId: string,
  rest: string,
  title: string,
) {
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
  if (rest === '' || rest === 'index.html') {
    const css = render.css !== null;
    try {
      const own = await readFile(db, sessionId, posix.join(render.root, 'index.html'));
      return sendPage(
        reply,
        200,
        'text/html; charset=utf-8',
        ownPage(own.content, render.root, render.entry, render.version, css),
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
const page = { schema: { hide: true, params: Type.Object({ key: Key }) } };
// Files and the bundle are fetched by a sandboxed page, which has no cookies to send: like the
// page's own address, knowing the session id (or sid) is what grants them.
const asset = {
  schema: { hide: true, params: Type.Object({ key: Key, '*': Type.String() }) },
  config: { public: true },
};

/** `/preview/<session id>/`: the last good render of a session, as a page. */
export const previewRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  app.get('/:key', page, async (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 302),
  );
  app.get('/:key/', page, async (request, reply) =>
    serve(db, reply, request.params.key, '', `Preview of ${request.params.key}`),
  );
  app.get('/:key/*', asset, async (request, reply) =>
    serve(db, reply, request.params.key, request.params['*'], `Preview of ${request.params.key}`),
  );
};

/** `/app/<sid>/`: the frontend of a published app, the last good render of the session it serves. */
export const appPageRoutes: ServiceRoutes<StageDatabase, StageConfig> = async (app, { db }) => {
  app.get('/:key', page, async (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 302),
  );
  const serveApp = async (key: string, rest: string, reply: FastifyReply) => {
    const found = await findApp(db, key).catch(() => undefined);
    if (!found) return notice(reply, 404, `No app ${key}`);
    return serve(db, reply, found.session_id, rest, found.title ?? found.name);
  };
  app.get('/:key/', page, async (request, reply) => serveApp(request.params.key, '', reply));
  app.get('/:key/*', asset, async (request, reply) =>
    serveApp(request.params.key, request.params['*'], reply),
  );
};
