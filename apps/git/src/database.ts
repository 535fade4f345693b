import type { Generated, Kysely, Selectable } from '@platform/db';

/** The tables of the `git` schema, as the migrations make them. */
export interface GitDatabase {
  providers: ProvidersTable;
  repositories: RepositoriesTable;
  pulls: PullsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  branch_protections: BranchProtectionsTable;
  reviews: ReviewsTable;
}

export interface ProvidersTable {
  id: string;
  name: string;
  type: 'github' | 'local';
  passport_provider_id: string | null;
  base_url: string | null;
  /** Who registered it (an email, `key:<name>` for a team key); null before 2026-12-03. */
  created_by: string | null;
  /** The team (a catalog owner) it names, if any. */
  team: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface RepositoriesTable {
  id: string;
  name: string;
  provider_id: string;
  owner: string;
  repo_name: string;
  html_url: string | null;
  default_branch: string;
  connected_by: string;
  status: string;
  private: boolean;
  /** Who connected it (an email, `key:<name>` for a team key); null before 2026-12-03. */
  created_by: string | null;
  /** The team (a catalog owner) whose members own the connection too, if any. */
  team: string | null;
  /** Catalog discovery: the file read on the default branch (null: `catalog-info.yaml`). */
  catalog_path: Generated<string | null>;
  /** What was wrong with that file when last read (nothing was applied); null when it was fine. */
  catalog_error: Generated<string | null>;
  catalog_checked_at: Generated<Date | null>;
  /** The catalog entities (`kind:name`) the file made, removed when they leave it. */
  catalog_entities: Generated<unknown>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A protected branch of a `local` repository: never force-pushed or deleted. */
export interface BranchProtectionsTable {
  id: string;
  repository_id: string;
  branch: string;
  require_pull_request: boolean;
  required_approvals: number;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A review of a `local` pull request: approved, changes_requested or commented. */
export interface ReviewsTable {
  id: string;
  repository_id: string;
  pull_number: number;
  author: string;
  state: 'approved' | 'changes_requested' | 'commented';
  body: string | null;
  /** The head commit reviewed. */
  commit_sha: string;
  created_at: Generated<Date>;
}

/** Pull requests of `local` repositories (GitHub keeps its own). */
export interface PullsTable {
  id: string;
  repository_id: string;
  number: number;
  title: string;
  body: string | null;
  head: string;
  base: string;
  state: 'open' | 'closed';
  merged: boolean;
  merge_commit_sha: string | null;
  merged_at: Date | null;
  author: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhooksTable {
  id: string;
  repository_id: string;
  url: string;
  /** The hook's id at GitHub; null for a `local` repository's webhook. */
  provider_hook_id: string | null;
  /** A `local` webhook's signing secret, encrypted; null for GitHub's (GIT_WEBHOOK_SECRET). */
  secret: string | null;
  events: string[];
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookEventsTable {
  id: string;
  delivery_id: string;
  event: string;
  action: string | null;
  repository_id: string | null;
  repository_name: string | null;
  payload: unknown;
  /** SHA-256 (hex) of the raw body as signed; unique. null for events stored before 2026-11-26. */
  body_sha256: string | null;
  created_at: Generated<Date>;
}

export type GitDb = Kysely<GitDatabase>;
export type ProviderRow = Selectable<ProvidersTable>;
export type RepositoryRow = Selectable<RepositoriesTable>;
export type PullRow = Selectable<PullsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type ProtectionRow = Selectable<BranchProtectionsTable>;
export type ReviewRow = Selectable<ReviewsTable>;
