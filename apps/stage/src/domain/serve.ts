import { posix } from 'node:path';
import type { FastifyReply } from 'fastify';
import { ApiError } from '@platform/core';
import type { StageDb } from '../database/index.js';
import { pageFile } from './page-files.js';
import { readFile } from '../repositories/files.js';
import { findRender } from '../repositories/renders.js';
import { useSession } from '../repositories/sessions.js';

// The pages and files of a session's last render, as an app's or a preview's own origin serves
// them (routes/content.ts).

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

function sendPage(reply: FastifyReply, status: number, type: string, body: string | Buffer) {
  return (
    reply
      .code(status)
      .type(type)
      // Set by the caller (the origin's policy, see origins.ts contentPolicy).
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .send(body)
  );
}

export const notice = (reply: FastifyReply, status: number, message: string) =>
  sendPage(
    reply,
    status,
    'text/html; charset=utf-8',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(message)}</title></head><body><p>${escape(message)}</p></body></html>`,
  );

/**
 * Serves `rest` (the path on the app's or preview's own origin, without its leading slash) from a
 * session's last render; the caller has set the origin's content security policy.
 */
export async function serve(
  db: StageDb,
  reply: FastifyReply,
  sessionId: string,
  rest: string,
  title: string,
) {
  // The page itself is at `/`.
  if (rest === 'index.html') return reply.redirect('/', 302);
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
  // A session file (text or bytes), `public/` at the root: page-files.ts.
  const file = await pageFile(db, sessionId, render.root, rest);
  if (!file) return notice(reply, 404, `No file /${rest} in this preview`);
  return sendPage(reply.header('x-content-type-options', 'nosniff'), 200, file.type, file.body);
}
