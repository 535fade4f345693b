import { Name, Nullable, PageQuery, Type, type Static } from '@platform/core';
import type { AppRow } from '../database/index.js';
import { EpochMs, ms, OwnerFields, TeamField } from './sessions.js';

export const AppParams = Type.Object({
  sid: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The app sid (exact) or its name (any case)',
  }),
});

const Text = (maxLength: number, description: string) => Type.String({ maxLength, description });

export const RepositoryInputSchema = Type.Object({
  provider: Type.String({ minLength: 1, maxLength: 50, description: 'e.g. github, local' }),
  owner: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 100 }),
  fullName: Type.Optional(
    Type.String({ minLength: 1, maxLength: 201, description: 'Default `<owner>/<name>`' }),
  ),
  url: Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '^https?://',
    description: "The repository's web or clone URL",
  }),
  visibility: Type.Optional(
    Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('internal')], {
      default: 'private',
    }),
  ),
  defaultBranch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, default: 'main' })),
  remoteName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'origin' })),
});

export const RepositorySchema = Type.Object({
  provider: Type.String(),
  owner: Type.String(),
  name: Type.String(),
  fullName: Type.String(),
  url: Type.String(),
  visibility: Type.String(),
  defaultBranch: Type.String(),
  remoteName: Type.String(),
  linkedAt: EpochMs('When it was linked (set by the server)'),
});

const Visibility = Type.Union([Type.Literal('private'), Type.Literal('public')], {
  description:
    "private: visitors sign in through the platform (handed off to the app's origin), and its backend is told who they are; public: anyone, anonymously",
});
const ConnectOrigins = Type.Array(
  Type.String({ maxLength: 200, pattern: '^https?://[a-z0-9.-]+(:[0-9]{1,5})?$' }),
  {
    maxItems: 20,
    description:
      'Origins its pages may fetch besides their own (CSP connect-src), e.g. https://api.example.com',
  },
);
const AppScopes = Type.Array(
  Type.String({ maxLength: 50, pattern: '^([a-z]+:(read|write|ingest|invoke)|\\*:(read|write))$' }),
  {
    maxItems: 30,
    description:
      "Scopes of its backend's platform calls (it acts as the app, for whoever last published or changed it, never as its visitor, and never with more than their role): default inference:invoke, communication:write, billing:write, pulse:ingest, ledger:write (what @stage/inference and the workflow blocks need)",
  },
);

const ConfigSchema = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: 200,
  description: 'Values workflows read as {{ config.<key> }}',
});

export const AppSchema = Type.Object({
  sid: Type.String({ description: 'The app id (8 characters)' }),
  name: Type.String(),
  sessionId: Nullable(Type.String(), {
    description:
      'The session it serves; null for a caller who may not read that session (its owner, collaborators and team, and admins may)',
  }),
  title: Nullable(Type.String()),
  description: Nullable(Type.String()),
  config: ConfigSchema,
  repository: Nullable(RepositorySchema),
  url: Type.String({
    description: 'Its address on the platform: /app/<sid>/, which redirects to its own origin',
  }),
  origin: Type.String({
    description:
      'Its own origin, where its pages, files and backend (/api/*) are served: http://<label>.<STAGE_APPS_DOMAIN>[:port]',
  }),
  visibility: Visibility,
  connectOrigins: ConnectOrigins,
  scopes: AppScopes,
  createdAt: EpochMs('When it was published first'),
  updatedAt: EpochMs('Its last change'),
  publishedAt: EpochMs('When it started serving its current session'),
  ...OwnerFields,
});

export const AppCreateSchema = Type.Object({
  sessionId: Type.String({ minLength: 1, maxLength: 64, description: 'The session to publish' }),
  name: Name('App name'),
  title: Type.Optional(Text(200, 'Shown instead of the name')),
  description: Type.Optional(Text(2000, 'What the app does')),
  config: Type.Optional(ConfigSchema),
  visibility: Type.Optional(Visibility),
  connectOrigins: Type.Optional(ConnectOrigins),
  scopes: Type.Optional(AppScopes),
  team: Type.Optional(TeamField),
});

export const AppUpdateSchema = Type.Object({
  name: Type.Optional(Name('App name')),
  title: Type.Optional(Nullable(Text(200, 'null clears it'))),
  description: Type.Optional(Nullable(Text(2000, 'null clears it'))),
  config: Type.Optional(ConfigSchema),
  repository: Type.Optional(
    Nullable(RepositoryInputSchema, { description: 'The linked repository; null unlinks it' }),
  ),
  visibility: Type.Optional(Visibility),
  connectOrigins: Type.Optional(ConnectOrigins),
  scopes: Type.Optional(AppScopes),
  team: Type.Optional(TeamField),
});

export const PublishSchema = Type.Object({
  sessionId: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The session to serve from now on',
  }),
});

export const AppListQuery = Type.Object({
  sessionId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The app of this session (serving it, or edited in it)',
    }),
  ),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'Part of the name, any case' }),
  ),
  ...PageQuery,
});

export const StudioCreateSchema = Type.Object({
  appSid: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The app to edit (sid or name)',
  }),
  team: Type.Optional(TeamField),
});

export const StudioListQuery = Type.Object({
  appSid: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'Only the sessions bound to this app (its sid)',
    }),
  ),
  ...PageQuery,
});

export const StudioSessionSchema = Type.Object({
  id: Type.String(),
  appSid: Type.String(),
  createdAt: EpochMs('When it was opened'),
  lastAccessedAt: EpochMs('Its last use'),
  fileCount: Type.Integer(),
  ...OwnerFields,
});

export type App = Static<typeof AppSchema>;
export type RepositoryInput = Static<typeof RepositoryInputSchema>;

/**
 * An app; `sessionId` only for a caller who may read the session it serves; `originOf` its own
 * origin as the caller reaches it (origins.ts originsFor).
 */
export const toApp = (
  row: AppRow,
  readsSession: boolean,
  originOf: (sid: string) => string,
): App => ({
  sid: row.sid,
  name: row.name,
  sessionId: readsSession ? row.session_id : null,
  title: row.title,
  description: row.description,
  config: row.config,
  repository: row.repository,
  url: `/app/${row.sid}/`,
  origin: originOf(row.sid),
  visibility: row.visibility,
  connectOrigins: row.connect_origins,
  scopes: row.scopes,
  createdAt: ms(row.created_at),
  updatedAt: ms(row.updated_at),
  publishedAt: ms(row.published_at),
  createdBy: row.created_by,
  team: row.team,
});
