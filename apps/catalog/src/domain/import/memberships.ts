import type { ExistingRow, Membership } from '../../repositories/import.js';
import { refLabel } from '../../repositories/named.js';
import { ownerOwnershipOf } from '../../repositories/ownership.js';
import type { Step } from './plan.js';

/** A membership an import declares, and by which side: a user's `memberOf`, a group's `members`. */
export interface Declared {
  group_id: string;
  member_id: string;
  side: 'member' | 'group';
  /** What the report calls the declaring record: `User ann`. */
  by: string;
}

export interface MembershipPlan {
  /** Pairs to insert or whose sides change. */
  write: Membership[];
  /** Pairs no side declares any more. */
  remove: Array<{ group_id: string; member_id: string }>;
  /** The member ids of a group, or the group ids of a member, before and after. */
  before: (id: string, as: 'group' | 'member') => string[];
  after: (id: string, as: 'group' | 'member') => string[];
  /** Groups a member's side newly claims (a user's `memberOf`), with who claims each first. */
  claimed: Map<string, string>;
}

const pairKey = (m: { group_id: string; member_id: string }) => `${m.group_id} ${m.member_id}`;

/**
 * The memberships after an import: an imported user's side is what its `memberOf` says now, an
 * imported group's side what its `members` say now; the other side of each stored pair is kept
 * (a group outside the import keeps the members it declared, whatever its users' files say).
 * `stored` holds the memberships of every owner the import names.
 */
export function planMemberships(
  stored: Membership[],
  declared: Declared[],
  users: Set<string>,
  groups: Set<string>,
): MembershipPlan {
  const was = new Map(stored.map((m) => [pairKey(m), m]));
  const state = new Map<string, Membership>();
  for (const m of stored)
    state.set(pairKey(m), {
      ...m,
      from_member: m.from_member && !users.has(m.member_id),
      from_group: m.from_group && !groups.has(m.group_id),
    });
  const claimed = new Map<string, string>();
  for (const d of declared) {
    const key = pairKey(d);
    const entry = state.get(key) ?? {
      group_id: d.group_id,
      member_id: d.member_id,
      from_member: false,
      from_group: false,
    };
    if (d.side === 'member') {
      if (!was.get(key)?.from_member && !claimed.has(d.group_id)) claimed.set(d.group_id, d.by);
      entry.from_member = true;
    } else entry.from_group = true;
    state.set(key, entry);
  }
  const alive = (m: Membership) => m.from_member || m.from_group;
  const write = [...state.values()].filter((m) => {
    const old = was.get(pairKey(m));
    return (
      alive(m) && (!old || old.from_member !== m.from_member || old.from_group !== m.from_group)
    );
  });
  const remove = [...state.values()].filter((m) => !alive(m) && was.has(pairKey(m)));
  const listOf = (list: Iterable<Membership>) => (id: string, as: 'group' | 'member') =>
    [...list]
      .filter((m) => (as === 'group' ? m.group_id : m.member_id) === id)
      .map((m) => (as === 'group' ? m.member_id : m.group_id))
      .sort();
  const before = listOf(stored);
  const after = listOf([...state.values()].filter(alive));
  return { write, remove, before, after, claimed };
}

/**
 * Groups already in the catalog, outside the import, that a user of the import joins (its
 * `memberOf`): they change, so the importer needs what changing them needs (their ownership).
 */
export function claimedGroups(
  memberships: MembershipPlan,
  steps: Step[],
  owners: Map<string, ExistingRow>,
) {
  const more: Step[] = [];
  for (const [group, by] of memberships.claimed) {
    const planned = steps.find((step) => step.id === group);
    const row = owners.get(group);
    if (planned || !row) {
      if (planned?.desired.label.includes('spec.children') && !planned.changes.includes('members'))
        planned.changes.push('members');
      continue;
    }
    more.push({
      desired: {
        kind: 'group',
        target: 'owner',
        namespace: row.namespace,
        name: row.name,
        label: `Group ${refLabel(row.namespace, row.name)} (in ${by} spec.memberOf)`,
        columns: {},
        ownerKind: 'group',
      },
      id: group,
      action: 'updated',
      columns: {},
      links: {},
      changes: ['members'],
      ownership: ownerOwnershipOf(row as ExistingRow & { created_by: unknown; members: unknown }),
    });
  }
  return more;
}
