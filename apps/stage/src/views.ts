import type { AppRow, RenderRow, SessionRow } from './database.js';
import type { App } from './schemas/apps.js';
import type { RenderState } from './schemas/sessions.js';

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
