import { badRequest, ok, responses, Type } from '@platform/core';
import { sessionAccess } from '../domain/access.js';
import { binaryMark, decodePushed, encoded, pushErrorFormatter } from '../domain/file-encoding.js';
import { checkPath, contentType } from '../domain/paths.js';
import {
  contentOf,
  fileHistory,
  filesWithContent,
  listFiles,
  readFile,
  writeFiles,
} from '../repositories/files.js';
import { useSession } from '../repositories/sessions.js';
import {
  DeletedFileSchema,
  FileListQuery,
  FileParams,
  FileQuery,
  FileVersionSchema,
  FileWithContentSchema,
  HistoryQuery,
  ms,
  PushedSchema,
  PushSchema,
  SessionParams,
} from '../schemas/sessions.js';
import type { StageRoutes } from '../domain/state.js';

/**
 * The file path a route's wildcard names: clients that treat it as one parameter (`{path}` in
 * the OpenAPI document) send its slashes encoded.
 */
export const wildcardPath = (rest: string) => `/${rest}`;

/** A session file read through the API is data, never a page of the platform's origin. */
export const INERT_FILE_CSP = "default-src 'none'; sandbox";

export const fileRoutes: StageRoutes = async (app, { db, config }) => {
  const session = sessionAccess(db);
  app.post(
    '/sessions/:id/push',
    {
      // JSON escaping may double a text's size: a push of a full session still fits.
      bodyLimit: 2 * config.maxSessionBytes + 1024 * 1024,
      config: { access: session.update },
      schemaErrorFormatter: pushErrorFormatter,
      schema: {
        operationId: 'pushFiles',
        summary: 'Write files',
        description:
          'Writes every file given (absolute, normalised paths: no `..`, NUL or trailing /, at most 512 characters), each as the next version of its path, in one transaction: all or none. A file is its text, or `{ content, encoding: "base64" }` for bytes (images, fonts; invalid base64 is a 400 naming the path). Concurrent pushes to one session take turns, so no version is lost or given twice. 413 PAYLOAD_TOO_LARGE when a file passes STAGE_MAX_FILE_BYTES or the session STAGE_MAX_SESSION_BYTES (bytes, decoded), 400 when it would hold more than STAGE_MAX_FILES files; the message says which. Binary files are marked `binary: true` in the answer.',
        params: SessionParams,
        body: PushSchema,
        response: responses({ 200: PushedSchema }),
      },
    },
    async (request) => {
      const entries = Object.entries(request.body.files);
      if (entries.length === 0) throw badRequest('files must name at least one file');
      const changes = entries.map(([path, value]) =>
        contentOf(checkPath(path, 'files path'), decodePushed(path, value)),
      );
      const binary = new Set(
        changes.filter((c) => typeof c.content !== 'string').map((c) => c.path),
      );
      const rows = await writeFiles(db, request.params.id, changes, config);
      return ok({
        count: rows.length,
        files: rows.map(({ path, version, size }) => ({
          path,
          version,
          size,
          ...binaryMark(binary.has(path)),
        })),
      });
    },
  );

  app.get(
    '/sessions/:id/files',
    {
      config: { access: session.read },
      schema: {
        operationId: 'getAllFiles',
        summary: 'List the files of a session',
        description:
          'Current files by path (binary ones marked `binary: true`), with their contents when `content=true`: the text, or for a binary file its base64 with `encoding: "base64"`.',
        params: SessionParams,
        querystring: FileListQuery,
        response: responses({ 200: Type.Array(FileWithContentSchema) }),
      },
    },
    async (request) => {
      const { id } = await useSession(db, request.params.id);
      if (request.query.content)
        return ok(
          (await filesWithContent(db, id)).map(({ content, ...file }) => ({
            ...file,
            ...encoded(content),
          })),
        );
      const rows = await listFiles(db, id);
      return ok(
        rows.map(({ path, version, size, binary }) => ({
          path,
          version,
          size,
          ...binaryMark(binary),
        })),
      );
    },
  );

  app.get(
    '/sessions/:id/files/*',
    {
      config: { access: session.read },
      schema: {
        operationId: 'readFile',
        summary: 'Read a file',
        description:
          'The content itself (not an envelope): the text, or the bytes of a binary file, with the media type of its extension (application/octet-stream for bytes of an unknown one) and an x-file-version header; `version` reads an older one. Served inert (a sandboxing Content-Security-Policy, nosniff): a session file never runs as a page of the platform. Errors are envelopes.',
        params: FileParams,
        querystring: FileQuery,
        produces: ['text/plain'],
        response: {
          ...responses({}),
          200: {
            description: 'The file content: text, or the bytes of a binary file',
            content: {
              '*/*': { schema: Type.Unsafe<string | Buffer>({ type: 'string', format: 'binary' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const path = checkPath(wildcardPath(request.params['*']));
      const { id } = await useSession(db, request.params.id);
      const file = await readFile(db, id, path, request.query.version);
      return reply
        .type(contentType(path, typeof file.data !== 'string'))
        .header('content-security-policy', INERT_FILE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('x-file-version', String(file.version))
        .send(file.data);
    },
  );

  app.delete(
    '/sessions/:id/files/*',
    {
      config: { access: session.update },
      schema: {
        operationId: 'deleteFile',
        summary: 'Delete a file',
        description:
          'The deletion is a version of its own in the history; writing the path again goes on from the next version.',
        params: FileParams,
        response: responses({ 200: DeletedFileSchema }),
      },
    },
    async (request) => {
      const path = checkPath(wildcardPath(request.params['*']));
      const [row] = await writeFiles(db, request.params.id, [{ path, content: null }], config);
      return ok({ path, version: row.version, deleted: true as const });
    },
  );

  app.get(
    '/sessions/:id/history',
    {
      config: { access: session.read },
      schema: {
        operationId: 'getFileHistory',
        summary: 'Every version of one file',
        description: 'Newest first: version, size, SHA-256 and time; deletions are versions too.',
        params: SessionParams,
        querystring: HistoryQuery,
        response: responses({ 200: Type.Array(FileVersionSchema) }),
      },
    },
    async (request) => {
      const { path, limit, offset } = request.query;
      const { id } = await useSession(db, request.params.id);
      const rows = await fileHistory(db, id, checkPath(path), { limit, offset });
      return ok(
        rows.map((row) => ({
          version: row.version,
          size: row.size,
          hash: row.hash,
          deleted: row.hash === null,
          createdAt: ms(row.created_at),
        })),
      );
    },
  );
};
