import {
  owns,
  principalOf,
  roleOf,
  type Access,
  type AuthorizationOptions,
  type Identity,
} from '@platform/core';
import type { BillingDb } from '../database.js';
import { findOwnerRule, type OwnerRuleRow } from '../repositories/owners.js';
import {
  lockResolution,
  resolveMoving,
  ruleScope,
  type Move,
} from '../repositories/owners-resolve.js';
import { forbidden } from './owners.js';

// Owner rule changes: written and their items re-resolved in one transaction holding the
// resolution lock, refused (rolled back) when they move spend of a team the caller is not in.

/** Whether two versions of a rule resolve items alike (only its description differs). */
const resolvesAlike = (a: OwnerRuleRow, b: OwnerRuleRow) =>
  (
    [
      'priority',
      'provider',
      'service',
      'focus_column',
      'focus_value',
      'tag_key',
      'tag_value',
      'target',
    ] as const
  ).every((c) => a[c] === b[c]);

export interface RuleChange {
  /** The rule changed or removed (read again under the lock); undefined: a new one. */
  id?: string;
  remove?: boolean;
  /** Writes the change (given the rule as it is now); answers the row written or removed. */
  write(trx: BillingDb, current: OwnerRuleRow | undefined): Promise<OwnerRuleRow | undefined>;
  /** Checks the items the change moved before it commits: throws to refuse it (nothing stays). */
  check(moves: Move[]): void | Promise<void>;
}

/**
 * Writes an owner rule's change and re-resolves the items it can move (ruleScope: those meeting
 * its old or new conditions, those resolved to its old target; none when only the description
 * changed), in one transaction holding the resolution lock. Answers the row (undefined: the rule
 * is gone) and how many items changed.
 */
export function changeOwnerRule(db: BillingDb, change: RuleChange) {
  return db.transaction().execute(async (trx) => {
    await lockResolution(trx);
    const current = change.id === undefined ? undefined : await findOwnerRule(trx, change.id);
    if (change.id !== undefined && !current) return { row: undefined, changed: 0 };
    const row = await change.write(trx, current);
    if (!row) return { row, changed: 0 };
    const after = change.remove ? undefined : row;
    const alike = current && after && resolvesAlike(current, after);
    const moves = alike ? [] : await resolveMoving(trx, ruleScope(current, after));
    await change.check(moves);
    return { row, changed: moves.reduce((n, m) => n + m.items, 0) };
  });
}

/**
 * Whether the caller may act for a team (its member, or an admin), its teams read once: before a
 * transaction, as the team directory may ask the catalog, whose queries on PGlite would wait for
 * that transaction.
 */
export async function teamsOf(identity: Identity, access: AuthorizationOptions) {
  if (!access.authOn || roleOf(identity, true) === 'admin') return () => true;
  const principal = await principalOf(identity, access.teams);
  return (team: string) => owns(principal, { createdBy: null, team });
}

/**
 * 403 unless the caller is in every team whose spend the change moved (items leaving or joining
 * a catalog service of that owner; unmatched items and services without an owner are no team's);
 * admins any. So no rule takes spend from another team, or hands its own to one.
 */
export function requireMoves(
  identity: Identity,
  declared: Access,
  moves: Move[],
  inTeam: (team: string) => boolean,
) {
  const teams = new Map<string, number>();
  for (const move of moves)
    for (const team of new Set([move.from, move.to]))
      if (team) teams.set(team, (teams.get(team) ?? 0) + move.items);
  for (const [team, items] of teams)
    if (!inTeam(team))
      throw forbidden(
        identity,
        declared,
        `membership of team ${team} (the change moves the spend of ${items} item${items === 1 ? '' : 's'} from or to its catalog services)`,
      );
}
