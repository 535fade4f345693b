import { Nullable, PageQuery, Type, type Static } from '@platform/core';
import type { RenderRow, SessionRow } from '../database/index.js';
import { MAX_PATH_LENGTH } from '../domain/paths.js';

/** Spec 2.1.4: the sandbox alone counts time in integer epoch milliseconds. */
export const EpochMs = (description: string) =>
  Type.Integer({ minimum: 0, description: `${description} (epoch milliseconds)` });

export const SessionParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64, description: 'The session id' }),
});

/** A team a resource may name: a catalog owner the caller is in (any, for an admin). */
export const TeamField = Nullable(
  Type.String({ minLength: 1, maxLength: 100, description: 'A catalog owner (team)' }),
  { description: 'The team it belongs to: a catalog owner the caller is in (any, for an admin)' },
);

/** Who owns a resource, in its API shape. */
export const OwnerFields = {
  createdBy: Nullable(Type.String(), {
    description: 'Who made it (an email, key:<name> for a team key); null: no one (admins only)',
  }),
  team: Nullable(Type.String(), { description: 'The team (catalog owner) it belongs to' }),
};

export const Collaborators = Type.Array(
  Type.String({ format: 'email', maxLength: 254, description: "A person's email" }),
  {
    maxItems: 100,
    description:
      'People who may read and change the session as its creator does (lower case; up to 100)',
  },
);

export const SessionSchema = Type.Object({
  createdAt: EpochMs('When the session was created'),
  lastAccessedAt: EpochMs('Its last use: every request about it moves this'),
  appSid: Nullable(Type.String(), {
    description: 'The app a studio session edits; null otherwise',
  }),
  ...OwnerFields,
  collaborators: Collaborators,
});

export const CreateSessionSchema = Type.Optional(
  Type.Object({ team: Type.Optional(TeamField) }, { description: 'Optional: { team }' }),
);

export const CreatedSessionSchema = Type.Object({
  id: Type.String({ description: 'The new session id (8 characters)' }),
  createdAt: EpochMs('When it was created'),
});

export const CollaboratorsBody = Type.Object({ emails: Collaborators });

export const SessionAccessSchema = Type.Object({ ...OwnerFields, collaborators: Collaborators });

/** A pushed file given as an object: bytes in base64 (an image, a font), or text. */
export const PushedFileSchema = Type.Object(
  {
    content: Type.String({ description: 'The text, or base64 (RFC 4648) of the bytes' }),
    encoding: Type.Optional(
      Type.Enum(['utf8', 'base64'], {
        description: 'base64: `content` is the base64 of the bytes; utf8 (default): the text',
      }),
    ),
  },
  { description: 'A file as `{ content, encoding }`: how binary files are pushed' },
);

export const PushSchema = Type.Object({
  files: Type.Record(
    Type.String(),
    Type.Union([Type.String({ description: 'The whole content (UTF-8 text)' }), PushedFileSchema]),
    {
      description:
        'Absolute path (`/app/main.tsx`) → content: the text, or `{ "content": "<base64>", "encoding": "base64" }` for bytes (images, fonts); at least one. Every file is written, or none; each write is a new version of its path.',
    },
  ),
});

const Binary = Type.Optional(
  Type.Literal(true, {
    description:
      'Present on binary files (bytes that are not UTF-8 text, or hold NUL: images, fonts); absent on text',
  }),
);

export const FileEntrySchema = Type.Object({
  path: Type.String(),
  version: Type.Integer({ minimum: 1, description: 'Bumped by every write of the path' }),
  size: Type.Integer({ minimum: 0, description: 'Bytes (of UTF-8, for text)' }),
  binary: Binary,
});

export const PushedSchema = Type.Object({
  count: Type.Integer({ description: 'Files written' }),
  files: Type.Array(FileEntrySchema, { description: 'The version each path got' }),
});

export const FileWithContentSchema = Type.Object({
  ...FileEntrySchema.properties,
  content: Type.Optional(
    Type.String({ description: 'Only with `content=true`: the text, or base64 of a binary file' }),
  ),
  encoding: Type.Optional(
    Type.Literal('base64', { description: 'Present (base64) when `content` is of a binary file' }),
  ),
});

export const FileListQuery = Type.Object({
  content: Type.Boolean({ default: false, description: "Include each file's content" }),
});

export const FileParams = Type.Object({
  id: SessionParams.properties.id,
  '*': Type.String({ minLength: 1, description: 'The file path without its leading /' }),
});

export const FileQuery = Type.Object({
  version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'An older version (see the history); default the current one',
    }),
  ),
});

export const DeletedFileSchema = Type.Object({
  path: Type.String(),
  version: Type.Integer({ description: 'The version that records the deletion' }),
  deleted: Type.Literal(true),
});

export const HistoryQuery = Type.Object({
  path: Type.String({ minLength: 1, maxLength: MAX_PATH_LENGTH, description: 'The file path' }),
  ...PageQuery,
});

export const FileVersionSchema = Type.Object({
  version: Type.Integer(),
  size: Type.Integer({ description: 'Bytes (of UTF-8, for text); 0 for a deletion' }),
  hash: Nullable(Type.String(), {
    description: 'SHA-256 of the content (hex); null for a deletion',
  }),
  deleted: Type.Boolean({ description: 'This version deleted the file' }),
  createdAt: EpochMs('When it was written'),
});

export const RenderErrorSchema = Type.Object({
  message: Type.String(),
  file: Nullable(Type.String(), { description: 'The session file at fault, when known' }),
  line: Nullable(Type.Integer(), { description: 'From 1' }),
  column: Nullable(Type.Integer(), { description: 'From 1' }),
});

export const RenderStateSchema = Type.Object({
  entry: Nullable(Type.String(), { description: 'The entry of the last render asked for' }),
  version: Type.Integer({ description: 'Good renders so far: 0 before the first, 1 after it' }),
  error: Nullable(RenderErrorSchema, {
    description: 'Why the last render failed; null after a good one',
  }),
  renderedAt: Nullable(EpochMs('When the output served now was made')),
});

export const RenderBodySchema = Type.Object({
  entry: Type.String({
    minLength: 1,
    maxLength: MAX_PATH_LENGTH,
    description: 'Path of the entry script',
  }),
});

export const RenderedSchema = Type.Object({
  entry: Type.String(),
  version: Type.Integer({ description: '1 after the first render, then one more per good render' }),
});

export const StatusSchema = Type.Object({
  origin: Type.String({
    description:
      "The preview's own origin, where the last good render is served: http://<label>.<STAGE_PREVIEW_DOMAIN>[:port]",
  }),
  session: SessionSchema,
  render: RenderStateSchema,
  files: Type.Array(FileEntrySchema),
});

/** OAuth scope URLs (https), or the OpenID Connect scopes openid, email and profile. */
export const ScopesSchema = Type.Object({
  scopes: Type.Array(
    Type.String({
      maxLength: 300,
      pattern:
        "^(openid|email|profile|https://[A-Za-z0-9.-]+(:\\d+)?(/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?)$",
      description:
        'An https scope URL (https://www.googleapis.com/auth/spreadsheets) or openid, email, profile',
    }),
    { maxItems: 50, description: 'Up to 50; repeats are dropped' },
  ),
});

export type RenderState = Static<typeof RenderStateSchema>;
export type FileVersion = Static<typeof FileVersionSchema>;

export const ms = (date: Date) => date.getTime();

export const toSession = (row: SessionRow) => ({
  createdAt: ms(row.created_at),
  lastAccessedAt: ms(row.last_accessed_at),
  appSid: row.app_sid,
  createdBy: row.created_by,
  team: row.team,
  collaborators: row.collaborators,
});

export const toRenderState = (
  row: Pick<RenderRow, 'entry' | 'version' | 'error' | 'rendered_at'> | undefined,
): RenderState => ({
  entry: row?.entry ?? null,
  version: row?.version ?? 0,
  error: row?.error ?? null,
  renderedAt: row?.rendered_at ? ms(row.rendered_at) : null,
});
