import type { Generated, Kysely, Selectable, Transaction } from '@platform/db';
import type { BackendTables, OpsTables } from './backends.js';
import type { NpmTables } from './npm.js';
import type { WorkflowTables } from './workflows.js';

/** The tables of the `stage` schema, as the migrations make them. */
export interface StageDatabase extends WorkflowTables, BackendTables, OpsTables, NpmTables {
  sessions: SessionsTable;
  blobs: BlobsTable;
  files: FilesTable;
  file_versions: FileVersionsTable;
  renders: RendersTable;
  snapshots: SnapshotsTable;
  snapshot_files: SnapshotFilesTable;
  apps: AppsTable;
}

export interface SessionsTable {
  id: string;
  /** The app a studio session edits; null for a plain session. */
  app_sid: string | null;
  google_scopes: Generated<string[]>;
  created_at: Generated<Date>;
  last_accessed_at: Generated<Date>;
  /** Who made it (an email, `key:<name>` for a team key); null: no one (admins only). */
  created_by: string | null;
  /** The team (a catalog owner) it belongs to, besides its creator. */
  team: string | null;
  /** People (emails, lower case) who may read and change it as its creator does. */
  collaborators: Generated<string[]>;
}

/**
 * File contents, by SHA-256 of their bytes: one row however many versions, sessions or snapshots
 * share it. Text (UTF-8 without NUL) in `content`, any other bytes in `bytes`; never both.
 */
export interface BlobsTable {
  hash: string;
  content: string | null;
  bytes: Uint8Array | null;
}

/** The latest version of every path a session ever had (deleted ones stay, to go on counting). */
export interface FilesTable {
  session_id: string;
  path: string;
  version: number;
  /** null once deleted. */
  hash: string | null;
  size: number;
  updated_at: Generated<Date>;
}

/** Every version of every path, deletions included (hash null). */
export interface FileVersionsTable {
  session_id: string;
  path: string;
  version: number;
  hash: string | null;
  size: number;
  created_at: Generated<Date>;
}

export interface RendersTable {
  session_id: string;
  /** The entry of the last render asked for. */
  entry: string;
  /** The entry of the output served (the last good render). */
  output_entry: string | null;
  /** Good renders so far: 1 after the first. */
  version: number;
  error: RenderError | null;
  /** The last good render: when, from which folder its page is served, and its output. */
  rendered_at: Date | null;
  root: string | null;
  js: string | null;
  css: string | null;
}

export interface RenderError {
  message: string;
  file: string | null;
  line: number | null;
  column: number | null;
}

export interface SnapshotsTable {
  id: string;
  session_id: string;
  label: string | null;
  created_at: Generated<Date>;
}

export interface SnapshotFilesTable {
  snapshot_id: string;
  path: string;
  version: number;
  hash: string;
  size: number;
}

export interface AppsTable {
  sid: string;
  name: string;
  session_id: string;
  title: string | null;
  description: string | null;
  config: Generated<Record<string, unknown>>;
  repository: AppRepository | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  published_at: Generated<Date>;
  /** Who published it first (an email, `key:<name>`); null: no one (admins only). */
  created_by: string | null;
  team: string | null;
  /** `private` (people signed in to the platform) or `public` (anyone). */
  visibility: Generated<AppVisibility>;
  /** Origins its pages may connect to besides their own (CSP connect-src). */
  connect_origins: Generated<string[]>;
  /** Scopes its backend's platform calls carry. */
  scopes: Generated<string[]>;
  /** Who last published or changed it: its backend's platform calls act for them. */
  published_by: string | null;
  /** Their role then (`viewer` or `member`): the backend never exceeds it. */
  publisher_role: Generated<'viewer' | 'member'>;
}

export type AppVisibility = 'private' | 'public';

export interface AppRepository {
  provider: string;
  owner: string;
  name: string;
  fullName: string;
  url: string;
  visibility: string;
  defaultBranch: string;
  remoteName: string;
  linkedAt: number;
}

export type StageDb = Kysely<StageDatabase> | Transaction<StageDatabase>;
export type SessionRow = Selectable<SessionsTable>;
export type FileRow = Selectable<FilesTable>;
export type RenderRow = Selectable<RendersTable>;
export type SnapshotRow = Selectable<SnapshotsTable>;
export type AppRow = Selectable<AppsTable>;
