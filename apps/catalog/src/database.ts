import type { Generated, Kysely, Selectable } from '@platform/db';

/** The service's Postgres schema; raw SQL (the graph walk) names its tables in full with it. */
export const SCHEMA = 'catalog';

/** The columns of every named record: systems, owners, services, APIs. */
interface RecordColumns {
  id: string;
  /** Backstage's namespace: `default` unless another is given (issue 37). */
  namespace: Generated<string>;
  name: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/**
 * Who owns a record (issue 31): the person who made it (an email, `key:<name>` for a team key) and
 * the team (a catalog owner's name) it names; null on records made before (admins only).
 */
interface OwnedColumns {
  created_by: string | null;
  team: string | null;
}

/** A link to external information, as Backstage's `metadata.links`. */
export interface Link {
  url: string;
  title?: string;
  icon?: string;
  type?: string;
}

/** The tables of the `catalog` schema, as the migrations make them. */
export interface CatalogDatabase {
  systems: SystemsTable;
  owners: OwnersTable;
  services: ServicesTable;
  dependencies: DependenciesTable;
  apis: ApisTable;
  service_apis: ServiceApisTable;
  graph_version: GraphVersionTable;
  memberships: MembershipsTable;
  domains: DomainsTable;
  templates: TemplatesTable;
  scorecards: ScorecardsTable;
  scorecard_results: ScorecardResultsTable;
  scorecard_pending: ScorecardPendingTable;
}

/** A scorecard (issue 39): its rules and ordered levels, as the API takes them. */
export interface ScorecardsTable {
  id: string;
  name: string;
  description: string | null;
  rules: unknown;
  levels: unknown;
  /** 1, then one more at each change. */
  version: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** A service's latest result on a scorecard: its level (rank -1: none) and each rule's status. */
export interface ScorecardResultsTable {
  scorecard_id: string;
  service_id: string;
  level: string | null;
  rank: number;
  passed: number;
  total: number;
  rules: unknown;
  evaluated_at: Generated<Date>;
  /** The scorecard's version it was evaluated on. */
  version: number;
}

/** A service changed since its last evaluation (the next evaluation job takes it). */
export interface ScorecardPendingTable {
  service_id: string;
  since: Generated<Date>;
  /** How many times it was marked (a mark made during an evaluation outlives it). */
  changes: Generated<number>;
}

/** A user or group is a member of a group (Backstage's memberOf / hasMember). */
export interface MembershipsTable {
  group_id: string;
  member_id: string;
  /** Declared by the member's `memberOf` (a user's), by the group's `members`: one or both. */
  from_member: Generated<boolean>;
  from_group: Generated<boolean>;
}

/** What domains and templates share: a title, a description, tags, an owner. */
interface DescribedColumns extends RecordColumns, OwnedColumns {
  title: string | null;
  description: string | null;
  tags: Generated<string[]>;
  owner_id: string | null;
}

/** Backstage's Domain: a business area that systems belong to. */
export interface DomainsTable extends DescribedColumns {
  type: string | null;
  links: Generated<Link[]>;
}

/** Backstage's (scaffolder) Template, kept whole as its descriptor. */
export interface TemplatesTable extends DescribedColumns {
  type: string | null;
  descriptor: unknown;
}

export interface SystemsTable extends RecordColumns, OwnedColumns {
  description: string | null;
  owner_id: string | null;
  tags: Generated<string[]>;
  domain_id: Generated<string | null>;
}

/**
 * An owner is a team: its members (emails, lower case) are in it, as are people whose `groups`
 * claim has its name. `team` is its display name (Backstage's), not an ownership: the team that
 * owns an owner record is the owner itself.
 */
export interface OwnersTable extends RecordColumns {
  email: string | null;
  team: string | null;
  kind: Generated<'group' | 'user'>;
  parent_id: string | null;
  members: Generated<string[]>;
  created_by: string | null;
  /** Backstage's group type (team, department ...) and profile picture. */
  type: Generated<string | null>;
  picture: Generated<string | null>;
  description: Generated<string | null>;
}

export interface ServicesTable extends RecordColumns, OwnedColumns {
  description: string | null;
  tags: string[];
  system_id: string | null;
  owner_id: string | null;
  type: string | null;
  lifecycle: string | null;
  links: Generated<Link[]>;
  annotations: Generated<Record<string, string>>;
  /** The Backstage kind it came as. */
  kind: Generated<'component' | 'resource'>;
}

/** An edge: service_id depends on depends_on_id; seq keeps the order they were added in. */
export interface DependenciesTable {
  service_id: string;
  depends_on_id: string;
  seq: Generated<number>;
  created_at: Generated<Date>;
}

export type ApiType = 'openapi' | 'asyncapi' | 'graphql' | 'grpc' | 'trpc' | 'other';

export interface ApisTable extends RecordColumns, OwnedColumns {
  type: ApiType;
  description: string | null;
  definition: string | null;
  lifecycle: string | null;
  tags: Generated<string[]>;
  owner_id: string | null;
  system_id: string | null;
}

/** The service provides or consumes the API; seq keeps the order they were given in. */
export interface ServiceApisTable {
  service_id: string;
  relation: 'provides' | 'consumes';
  api_id: string;
  seq: Generated<number>;
}

/** One row: bumped by triggers with every write to what the dependency graph is made of. */
export interface GraphVersionTable {
  id: Generated<boolean>;
  version: Generated<number>;
}

export type CatalogDb = Kysely<CatalogDatabase>;
export type ServiceRow = Selectable<ServicesTable>;
