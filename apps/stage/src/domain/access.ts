import type { FastifyRequest } from 'fastify';
import {
  ApiError,
  describeIdentity,
  mayOwn,
  visibleTo,
  type Access,
  type AuthorizationOptions,
  type Identity,
  type Ownership,
} from '@platform/core';
import type { AppRow, StageDb } from '../database/index.js';
import { findAppOwnership } from '../repositories/apps.js';
import { findSessionOwnership, sessionOwnerships } from '../repositories/sessions.js';
import { toApp, type App } from '../schemas/apps.js';

// The declarations the routes of several files share (issue 31): a session and everything under
// it is its owner's, its collaborators', its team's and admins' (the `owner` rule on the session
// the `:id` parameter names); a published app is everyone's to read, its publisher's and team's
// to change.

/** Reading and changing the session `:id` names. */
export function sessionAccess(db: StageDb) {
  const owner = (request: FastifyRequest) =>
    findSessionOwnership(db, (request.params as { id?: unknown }).id);
  const read: Access = { resource: 'stage.session', action: 'read', rule: 'owner', owner };
  const update: Access = { resource: 'stage.session', action: 'update', rule: 'owner', owner };
  return { read, update, owner };
}

/** The owner rule on the app `:sid` names (sid, else name in any case). */
export const appOwner = (db: StageDb) => (request: FastifyRequest) =>
  findAppOwnership(db, (request.params as { sid?: unknown }).sid);

const lower = (values: readonly string[]) => values.map((v) => v.toLowerCase());

/**
 * Whether the caller may read a session of this ownership, as the owner rule decides it (its
 * creator, a collaborator, its team, admins; everyone when authentication is off): what hides an
 * app's `sessionId` from others. Asks the teams directory once.
 */
export async function sessionReader(
  identity: Identity,
  options: AuthorizationOptions,
): Promise<(ownership: Ownership | undefined) => boolean> {
  const visible = await visibleTo(identity, options);
  if (!visible) return () => true;
  const creators = lower(visible.creators);
  const teams = lower(visible.teams);
  const mine = (value: string | null | undefined, among: string[]) =>
    !!value && among.includes(value.toLowerCase());
  return (ownership) =>
    !!ownership &&
    (mine(ownership.createdBy, creators) ||
      mine(ownership.team, teams) ||
      (ownership.collaborators ?? []).some((email) => mine(email, creators)));
}

/**
 * The apps as the caller sees them: each `sessionId` only when the caller may read the session
 * the app serves (one query for the list's sessions, none when the caller sees every session).
 */
export async function appsSeenBy(
  db: StageDb,
  identity: Identity,
  options: AuthorizationOptions,
  rows: AppRow[],
  originOf: (sid: string) => string,
): Promise<App[]> {
  if (!(await visibleTo(identity, options))) return rows.map((row) => toApp(row, true, originOf));
  const reads = await sessionReader(identity, options);
  const owners = await sessionOwnerships(
    db,
    rows.map((row) => row.session_id),
  );
  return rows.map((row) => toApp(row, reads(owners.get(row.session_id)), originOf));
}

/**
 * What a route naming a second session in its body (publishing it) needs besides its own
 * declaration: ownership of that session. 403 naming it otherwise, audited as the hook does;
 * nothing when there is no such session (the handler answers 404).
 */
export async function requireSessionOwnership(
  request: FastifyRequest,
  db: StageDb,
  options: AuthorizationOptions,
  sessionId: string,
): Promise<void> {
  const ownership = await findSessionOwnership(db, sessionId);
  if (!ownership || (await mayOwn(request.identity, ownership, options))) return;
  const actor = describeIdentity(request.identity);
  const missing = `ownership of session ${sessionId} (its creator, a collaborator, its team, or an admin)`;
  await options
    .audit?.({
      actor,
      resource: 'stage.session',
      metadata: {
        method: request.method,
        path: request.url.split('?')[0],
        action: 'publish',
        missing,
        requestId: request.id,
      },
    })
    .catch((error: unknown) => request.log.warn({ err: error }, 'denial not audited'));
  throw new ApiError(
    'FORBIDDEN',
    `${actor} may not publish session ${sessionId}: it needs ${missing}`,
  );
}
