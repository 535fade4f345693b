import { stringifyEntityRef } from '@backstage/catalog-model';
import { newId, unique, type Ownership } from '@platform/core';
import type { CatalogDb } from '../../database.js';
import { replaceDependencies } from '../../repositories/dependencies.js';
import {
  insertRows,
  TABLE,
  updateRow,
  writeMemberships,
  type ExistingRow,
  type loadExisting,
} from '../../repositories/import.js';
import { keyOf, refLabel } from '../../repositories/named.js';
import { ownerOwnershipOf, ownershipOf } from '../../repositories/ownership.js';
import { replaceApis } from '../../repositories/relations.js';
import type { Desired, Ref, Target } from './mapping.js';
import {
  claimedGroups,
  planMemberships,
  type Declared,
  type MembershipPlan,
} from './memberships.js';
import { ownerProblems } from './owners.js';

type Existing = Awaited<ReturnType<typeof loadExisting>>;
type LinkField = 'dependencies' | 'providesApis' | 'consumesApis' | 'memberOf';
const TARGETS = ['owner', 'domain', 'system', 'api', 'service', 'template'] as const;

/** What an import does to one record. */
export interface Step {
  desired: Desired;
  id: string;
  action: 'created' | 'updated' | 'unchanged';
  /** Every column the descriptor decides, ids resolved; a service's links as id lists. */
  columns: Record<string, unknown>;
  links: Partial<Record<LinkField, string[]>>;
  changes: string[];
  /** Who owns the record, when it exists already: who may let the import change it. */
  ownership?: Ownership;
}

/** JSON with keys sorted: jsonb gives keys back in its own order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

const keyIn = (target: Target, namespace: string, name: string) =>
  `${target}:${keyOf(namespace, name)}`;
const fieldName = (column: string) => column.replace(/_id$/, '');

/**
 * Resolves every reference against the import and the catalog (namespace and name, any case), and
 * compares each record with what is stored: every problem at once (unknown references, wrong kinds,
 * self-dependencies, parent cycles, children claimed twice), or the steps. A group's `children`
 * set those groups' parent, in the import or already in the catalog; a user's `memberOf` and a
 * group's `members` are one relation.
 */
export function planImport(desired: Desired[], existing: Existing) {
  const problems: string[] = [];
  const stored = new Map<string, ExistingRow>();
  for (const target of TARGETS)
    for (const row of existing[target]) stored.set(keyIn(target, row.namespace, row.name), row);
  const imported = new Map(desired.map((d) => [keyIn(d.target, d.namespace, d.name), d]));
  const ids = new Map<string, string>();
  for (const d of desired) {
    const key = keyIn(d.target, d.namespace, d.name);
    ids.set(key, stored.get(key)?.id ?? newId());
  }
  const idOf = (d: Desired) => ids.get(keyIn(d.target, d.namespace, d.name))!;
  const ownersById = new Map(existing.owner.map((row) => [row.id, row]));

  const resolve = (d: Desired, ref: Ref | null | undefined): string | null => {
    if (!ref) return null;
    const key = keyIn(ref.target, ref.namespace, ref.name);
    const id = ids.get(key) ?? stored.get(key)?.id;
    const written = stringifyEntityRef(ref);
    if (!id) {
      const what = ref.target === 'service' ? 'component or resource' : ref.kind;
      problems.push(
        `${d.label}: ${ref.field} ${written}: no ${what} ${refLabel(ref.namespace, ref.name)} in the catalog or the import`,
      );
      return null;
    }
    if (ref.target === 'owner') {
      const kind = imported.get(key)?.ownerKind ?? stored.get(key)?.kind;
      if (kind !== ref.kind) problems.push(`${d.label}: ${ref.field} ${written} is a ${kind}`);
    }
    return id;
  };

  // A group's children: their parent is that group (one parent each).
  const childParent = new Map<string, { id: string; by: Desired }>();
  // Memberships, whichever side names them, with the side.
  const declared: Declared[] = [];
  for (const d of desired) {
    for (const ref of d.children ?? []) {
      const child = resolve(d, ref);
      if (!child) continue;
      const before = childParent.get(child);
      if (before && before.id !== idOf(d))
        problems.push(
          `${d.label}: ${ref.field} ${stringifyEntityRef(ref)} is also a child of ${before.by.label}`,
        );
      else childParent.set(child, { id: idOf(d), by: d });
    }
    for (const ref of d.members ?? []) {
      const member = resolve(d, ref);
      if (member)
        declared.push({ group_id: idOf(d), member_id: member, side: 'group', by: d.label });
    }
    for (const ref of d.memberOf ?? []) {
      const group = resolve(d, ref);
      if (group)
        declared.push({ group_id: group, member_id: idOf(d), side: 'member', by: d.label });
    }
  }
  const idsOf = (kind: 'user' | 'group') =>
    new Set(desired.filter((d) => d.ownerKind === kind).map(idOf));
  const memberships = planMemberships(
    existing.memberships,
    declared,
    idsOf('user'),
    idsOf('group'),
  );

  const steps: Step[] = desired.map((d) => {
    const id = idOf(d);
    const columns: Record<string, unknown> = { name: d.name, ...d.columns };
    const links: Step['links'] = {};
    if (d.target === 'owner') {
      let parent = resolve(d, d.parent);
      const named = childParent.get(id);
      if (named && parent && parent !== named.id)
        problems.push(
          `${d.label}: spec.parent ${stringifyEntityRef(d.parent!)}, but ${named.by.label} names it in spec.children`,
        );
      parent = parent ?? named?.id ?? null;
      columns.parent_id = parent;
      if (d.ownerKind === 'user') links.memberOf = memberships.after(id, 'member');
    }
    if (d.target !== 'owner') columns.owner_id = resolve(d, d.owner);
    if (d.target === 'system') columns.domain_id = resolve(d, d.domain);
    if (d.target === 'api' || d.target === 'service') columns.system_id = resolve(d, d.system);
    if (d.target === 'service') {
      const all = (refs: Ref[] = []) =>
        unique(refs.map((ref) => resolve(d, ref)).filter((x): x is string => !!x));
      links.dependencies = all(d.dependsOn);
      links.providesApis = all(d.providesApis);
      links.consumesApis = all(d.consumesApis);
      if (links.dependencies.includes(id)) problems.push(`${d.label}: spec.dependsOn names itself`);
    }
    const before = stored.get(keyIn(d.target, d.namespace, d.name));
    if (!before) return { desired: d, id, action: 'created', columns, links, changes: [] };
    const was: Record<string, unknown> = { ...before, memberOf: memberships.before(id, 'member') };
    const changes = [
      ...Object.keys(columns).filter((c) => canonical(columns[c]) !== canonical(was[c])),
      ...Object.keys(links).filter((l) => canonical(links[l as LinkField]) !== canonical(was[l])),
    ].map(fieldName);
    const members = (when: 'before' | 'after') => memberships[when](id, 'group').join(' ');
    if (
      d.ownerKind === 'group' &&
      (members('before') !== members('after') || memberships.claimed.has(id))
    )
      changes.push('members');
    return {
      desired: d,
      id,
      action: changes.length ? 'updated' : 'unchanged',
      columns,
      links,
      changes,
      ownership:
        d.target === 'owner'
          ? ownerOwnershipOf(before as ExistingRow & { created_by: unknown; members: unknown })
          : ownershipOf(before as ExistingRow & { created_by: unknown; team: unknown }),
    };
  });
  steps.push(...storedChildren(childParent, steps, ownersById));
  problems.push(...ownerProblems(steps, existing.owner));
  // After the parent checks: these steps change no parent.
  steps.push(...claimedGroups(memberships, steps, ownersById));
  return { problems, steps, memberships };
}

/** Groups already in the catalog that a group of the import names in `children`: their parent. */
function storedChildren(
  childParent: Map<string, { id: string; by: Desired }>,
  steps: Step[],
  owners: Map<string, ExistingRow>,
): Step[] {
  const planned = new Set(steps.map((step) => step.id));
  const more: Step[] = [];
  for (const [child, { id: parent, by }] of childParent) {
    const row = owners.get(child);
    if (planned.has(child) || !row || row.parent_id === parent) continue;
    const label = `Group ${refLabel(row.namespace, row.name)} (in ${by.label} spec.children)`;
    more.push({
      desired: {
        kind: 'group',
        target: 'owner',
        namespace: row.namespace,
        name: row.name,
        label,
        columns: {},
        ownerKind: 'group',
      },
      id: child,
      action: 'updated',
      columns: { parent_id: parent },
      links: {},
      changes: ['parent'],
      ownership: ownerOwnershipOf(row as ExistingRow & { created_by: unknown; members: unknown }),
    });
  }
  return more;
}

/**
 * Writes the steps, in the caller's transaction: owners, domains, systems, APIs, services,
 * templates, then links and memberships. The records it creates get `owned` (the importer, its
 * key's team); an owner no team.
 */
export async function applyImport(
  db: CatalogDb,
  plan: { steps: Step[]; memberships: MembershipPlan },
  owned: { created_by: string | null; team: string | null },
) {
  const { steps } = plan;
  for (const target of TARGETS) {
    const mine = steps.filter(
      (step) => step.desired.target === target && step.action !== 'unchanged',
    );
    const created = mine.filter((step) => step.action === 'created');
    // Owners first without their parent: a parent may be created by the same import.
    const insertColumns = (step: Step) =>
      target === 'owner'
        ? { ...step.columns, parent_id: null, created_by: owned.created_by }
        : { ...step.columns, ...owned };
    await insertRows(
      db,
      TABLE[target],
      created.map((step) => ({ id: step.id, ...insertColumns(step) })),
    );
    for (const step of mine)
      if (step.action === 'updated' || (target === 'owner' && step.columns.parent_id))
        await updateRow(db, TABLE[target], step.id, step.columns);
  }
  for (const step of steps) {
    if (step.desired.target !== 'service' || step.action === 'unchanged') continue;
    const { dependencies, providesApis, consumesApis } = step.links;
    // A service just created has no links to replace: only those it gets are written.
    const fresh = step.action === 'created';
    if (!fresh || dependencies!.length) await replaceDependencies(db, step.id, dependencies!);
    if (!fresh || providesApis!.length) await replaceApis(db, step.id, 'provides', providesApis!);
    if (!fresh || consumesApis!.length) await replaceApis(db, step.id, 'consumes', consumesApis!);
  }
  await writeMemberships(db, plan.memberships);
}
