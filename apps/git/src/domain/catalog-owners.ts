import { describeIdentity, mayOwn, type Identity, type ServiceContext } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase } from '../database.js';

/** A step of the catalog's import: what it did (or, in a dry run, would do) to one record. */
export interface ImportStep {
  target: string;
  name: string;
  action: string;
}

interface Owned {
  createdBy?: string | null;
  team?: string | null;
  name?: string;
  members?: string[];
}

/**
 * The records an import by `identity` would change that it does not own, as the catalog's own
 * rule decides (its creator, its team, an owner's members; admins all). A service identity acting
 * for a person is the platform's own (admin) at the catalog: its ownership is checked here, as
 * the person's, before anything is written.
 */
export async function refusedSteps(
  ctx: ServiceContext<GitDatabase, GitConfig>,
  identity: Identity,
  steps: ImportStep[],
): Promise<string[]> {
  const refused: string[] = [];
  for (const step of steps.filter((s) => s.action === 'updated')) {
    const path = { idOrName: step.name };
    const read = {
      service: () => ctx.platform.catalog.getService({ path }),
      api: () => ctx.platform.catalog.getApi({ path }),
      system: () => ctx.platform.catalog.getSystem({ path }),
      owner: () => ctx.platform.catalog.getOwner({ path }),
    }[step.target];
    if (!read) continue;
    const record = (await read()) as Owned;
    const ownership =
      step.target === 'owner'
        ? { createdBy: null, team: record.name ?? step.name, collaborators: record.members ?? [] }
        : { createdBy: record.createdBy ?? null, team: record.team ?? null };
    if (!(await mayOwn(identity, ownership, ctx.access))) {
      const owners = [ownership.createdBy, ownership.team && `team ${ownership.team}`]
        .filter(Boolean)
        .join(' and ');
      refused.push(
        `${step.target} ${step.name} (it belongs to ${owners || 'no one: admins only'})`,
      );
    }
  }
  return refused;
}

/** The refusal kept on the repository. */
export const refusal = (identity: Identity, refused: string[]) =>
  `${describeIdentity(identity)} may not update catalog records it does not own, nothing written: ${refused.join(', ')}`;
