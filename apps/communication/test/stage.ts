import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A published app as stage answers it (the fields communication reads, and a few more). */
export interface StageApp {
  sid: string;
  name: string;
  createdBy: string | null;
  team: string | null;
}

/**
 * A local server answering `GET /api/v1/stage/apps/:sid` as stage does: the app by its exact
 * sid, else by its name in any case, else a 404 envelope; or `status` with an error envelope for
 * every call (stage failing). The service reaches it through PLATFORM_URL. Counts the calls.
 */
export async function fakeStage(apps: StageApp[], options: { status?: number } = {}) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const match = /^\/api\/v1\/stage\/apps\/([^/?]+)$/.exec(req.url ?? '');
    const ref = match ? decodeURIComponent(match[1]) : '';
    const app =
      apps.find((a) => a.sid === ref) ??
      apps.find((a) => a.name.toLowerCase() === ref.toLowerCase());
    const status = options.status ?? (app && req.method === 'GET' ? 200 : 404);
    res.writeHead(status, { 'content-type': 'application/json' });
    if (status !== 200 || !app) {
      const code = status === 404 ? 'NOT_FOUND' : 'INTERNAL_ERROR';
      res.end(
        JSON.stringify({ success: false, error: { code, message: `App not found: ${ref}` } }),
      );
      return;
    }
    const data = {
      ...app,
      sessionId: `session-of-${app.sid}`,
      title: null,
      description: null,
      config: {},
      repository: null,
      url: `/app/${app.sid}/`,
      createdAt: 0,
      updatedAt: 0,
      publishedAt: 0,
    };
    res.end(JSON.stringify({ success: true, data }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** The requests stage received, as `METHOD /path`. */
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
