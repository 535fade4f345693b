import { newId, unique, type Ownership } from '@platform/core';
import type { CatalogDb } from '../../database.js';
import { replaceDependencies } from '../../repositories/dependencies.js';
import {
  insertRows,
  TABLE,
  updateRow,
  type ExistingRow,
  type loadExisting,
} from '../../repositories/import.js';
import { ownerOwnershipOf, ownershipOf } from '../../repositories/ownership.js';
import { replaceApis } from '../../repositories/relations.js';
import type { Desired, Ref, Target } from './mapping.js';

type Existing = Awaited<ReturnType<typeof loadExisting>>;
type LinkField = 'dependencies' | 'providesApis' | 'consumesApis';

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

const keyOf = (target: Target, name: string) => `${target}:${name.toLowerCase()}`;
const fieldName = (column: string) => column.replace(/_id$/, '');

/**
 * Resolves every reference against the import and the catalog, and compares each record with
 * what is stored: every problem at once (unknown references, wrong kinds, self-dependencies,
 * parent cycles), or the steps.
 */
export function planImport(desired: Desired[], existing: Existing) {
  const problems: string[] = [];
  const stored = new Map<string, ExistingRow>();
  for (const target of ['owner', 'system', 'api', 'service'] as const)
    for (const row of existing[target]) stored.set(keyOf(target, row.name), row);
  const imported = new Map(desired.map((d) => [keyOf(d.target, d.name), d]));
  const ids = new Map<string, string>();
  for (const d of desired) {
    const key = keyOf(d.target, d.name);
    ids.set(key, stored.get(key)?.id ?? newId());
  }
  for (const row of existing.owner)
    if (!ids.has(keyOf('owner', row.name))) ids.set(keyOf('owner', row.name), row.id);

  const resolve = (d: Desired, ref: Ref | null | undefined): string | null => {
    if (!ref) return null;
    const key = keyOf(ref.target, ref.name);
    const id = ids.get(key) ?? stored.get(key)?.id;
    const what = ref.target === 'service' ? 'component or resource' : ref.kind;
    if (!id) {
      problems.push(
        `${d.label}: ${ref.field} ${ref.kind}:${ref.name}: no ${what} ${ref.name} in the catalog or the import`,
      );
      return null;
    }
    if (ref.target === 'owner') {
      const kind = imported.get(key)?.ownerKind ?? stored.get(key)?.kind;
      if (kind !== ref.kind)
        problems.push(`${d.label}: ${ref.field} ${ref.kind}:${ref.name} is a ${kind}`);
    }
    return id;
  };

  const steps: Step[] = desired.map((d) => {
    const id = ids.get(keyOf(d.target, d.name))!;
    const columns: Record<string, unknown> = { name: d.name, ...d.columns };
    const links: Step['links'] = {};
    if (d.target === 'owner') columns.parent_id = resolve(d, d.parent);
    if (d.target === 'system') columns.owner_id = resolve(d, d.owner);
    if (d.target === 'api' || d.target === 'service') {
      columns.owner_id = resolve(d, d.owner);
      columns.system_id = resolve(d, d.system);
    }
    if (d.target === 'service') {
      const all = (refs: Ref[] = []) =>
        unique(refs.map((ref) => resolve(d, ref)).filter((x): x is string => !!x));
      links.dependencies = all(d.dependsOn);
      links.providesApis = all(d.providesApis);
      links.consumesApis = all(d.consumesApis);
      if (links.dependencies.includes(id)) problems.push(`${d.label}: spec.dependsOn names itself`);
    }
    const before = stored.get(keyOf(d.target, d.name));
    if (!before) return { desired: d, id, action: 'created', columns, links, changes: [] };
    const changes = [
      ...Object.keys(columns).filter((c) => canonical(columns[c]) !== canonical(before[c])),
      ...Object.keys(links).filter(
        (l) => canonical(links[l as keyof typeof links]) !== canonical(before[l]),
      ),
    ].map(fieldName);
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
  problems.push(...ownerProblems(steps, existing.owner));
  return { problems, steps };
}

/** Parent cycles and groups with children turned into users, in the owners as they would be. */
function ownerProblems(steps: Step[], owners: ExistingRow[]): string[] {
  const parent = new Map(owners.map((row) => [row.id, row.parent_id as string | null]));
  const names = new Map(owners.map((row) => [row.id, row.name]));
  const owned = steps.filter((step) => step.desired.target === 'owner');
  for (const step of owned) {
    parent.set(step.id, step.columns.parent_id as string | null);
    names.set(step.id, step.desired.name);
  }
  const problems: string[] = [];
  for (const step of owned) {
    const chain = [step.id];
    for (let at = parent.get(step.id); at; at = parent.get(at)) {
      chain.push(at);
      if (at === step.id) {
        problems.push(
          `${step.desired.label}: spec.parent would make a cycle: ${chain.map((id) => names.get(id)).join(' -> ')}`,
        );
        break;
      }
      if (chain.length > owners.length + owned.length) break;
    }
    if (step.desired.ownerKind === 'user') {
      const children = [...parent].filter(([, p]) => p === step.id).map(([id]) => names.get(id));
      if (children.length > 0)
        problems.push(
          `${step.desired.label}: a user cannot have child groups: ${children.join(', ')}`,
        );
    }
  }
  return problems;
}

/**
 * Writes the steps, in the caller's transaction: owners, systems, APIs, services, then links.
 * The records it creates get `owned` (the importer, its key's team); an owner no team.
 */
export async function applyImport(
  db: CatalogDb,
  steps: Step[],
  owned: { created_by: string | null; team: string | null },
) {
  for (const target of ['owner', 'system', 'api', 'service'] as const) {
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
}
