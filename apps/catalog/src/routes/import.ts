import {
  ApiError,
  badRequest,
  describeIdentity,
  ok,
  orConflict,
  responses,
  type Access,
  ownershipColumns,
} from '@platform/core';
import { mapEntities, type Ref } from '../domain/import/mapping.js';
import { applyImport, planImport, type Step } from '../domain/import/plan.js';
import { auditDenial, ownerCheck } from '../domain/ownership.js';
import type { CatalogRoutes } from '../domain/state.js';
import { lockOwnerParents } from '../repositories/owners.js';
import { loadExisting, type NamedKeys } from '../repositories/import.js';
import { ImportInputSchema, ImportResultSchema, type ImportResult } from '../schemas/import.js';

/** The largest import body: 10,000 descriptors with API definitions fit. */
const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

/** Every namespace and name of a collection the import writes or refers to: what it must read first. */
function namesOf(desired: ReturnType<typeof mapEntities>['desired']) {
  const names: NamedKeys = {
    owner: [],
    domain: [],
    system: [],
    api: [],
    service: [],
    template: [],
  };
  const add = (ref: Ref | null | undefined) => {
    if (ref) names[ref.target].push([ref.namespace, ref.name]);
  };
  for (const d of desired) {
    names[d.target].push([d.namespace, d.name]);
    [
      ...(d.members ?? []),
      ...(d.memberOf ?? []),
      d.system,
      d.domain,
      ...(d.dependsOn ?? []),
      ...(d.providesApis ?? []),
      ...(d.consumesApis ?? []),
    ].forEach(add);
  }
  return names;
}

/**
 * Members import; what an import creates is theirs. What it would change of existing records
 * needs what a PUT of each needs, ownership: else 403 naming them all, nothing written.
 */
const IMPORT: Access = { resource: 'catalog.import', action: 'create' };

/** The 403 of an import that would change records the caller does not own. */
function refusal(who: string, refused: Step[]) {
  const whose = (step: Step) => {
    const { createdBy, team } = step.ownership ?? { createdBy: null, team: null };
    const owners = [createdBy, team && `team ${team}`].filter(Boolean).join(' and ');
    return `${step.desired.label} (it belongs to ${owners || 'no one: admins only'})`;
  };
  return `${who} may not update catalog records it does not own, nothing written: ${refused.map(whose).join(', ')}`;
}

export const importRoutes: CatalogRoutes = async (app, { db, access, state }) => {
  app.post(
    '/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: IMPORT },
      schema: {
        operationId: 'importEntities',
        summary: 'Import Backstage descriptors',
        description:
          'Components and Resources become services, APIs APIs, Systems systems, Domains domains, Groups and Users owners (with memberships), Templates templates; Locations are reported target by target (never fetched). Namespaces are kept; a reference without one is in the namespace of the entity making it. Everything is checked first (every problem reported at once, nothing written), then applied in one transaction. Importing the same descriptors twice changes nothing; dryRun reports what would change.',
        body: ImportInputSchema,
        response: responses({ 200: ImportResultSchema }),
      },
    },
    async (request) => {
      const { entities, dryRun = false } = request.body;
      const owned = await ownershipColumns(request.identity, undefined, access);
      const mayChange = await ownerCheck(request.identity, access);
      const mapped = mapEntities(entities);
      const outcome = await orConflict(
        () =>
          db.transaction().execute(async (trx) => {
            // Owners' parents are read and may be set: serialised with PATCH of a parent first.
            await lockOwnerParents(trx);
            const existing = await loadExisting(trx, namesOf(mapped.desired));
            const plan = planImport(mapped.desired, existing);
            const { problems, steps } = plan;
            problems.unshift(...mapped.problems);
            if (problems.length > 0)
              throw badRequest(
                `Import refused, nothing written: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `- ${p}`).join('\n')}`,
              );
            const refused: Step[] = [];
            for (const step of steps)
              if (step.action === 'updated' && !(await mayChange(step.ownership!)))
                refused.push(step);
            if (!dryRun && refused.length === 0) await applyImport(trx, plan, owned);
            return { steps, refused };
          }),
        'A record of the import was created meanwhile by someone else; import again',
      );
      if (outcome.refused.length > 0) {
        // After the transaction: the audit trail may live on the same (embedded) database.
        await auditDenial(request, access, IMPORT.resource, 'ownership');
        throw new ApiError(
          'FORBIDDEN',
          refusal(describeIdentity(request.identity), outcome.refused),
        );
      }
      const result = outcome.steps;
      if (!dryRun)
        await state.scorecards.servicesChanged(
          result
            .filter((s) => s.desired.target === 'service' && s.action !== 'unchanged')
            .map((s) => s.id),
        );
      const count = (action: string) => result.filter((step) => step.action === action).length;
      const answer: ImportResult = {
        dryRun,
        created: count('created'),
        updated: count('updated'),
        unchanged: count('unchanged'),
        entities: result.map((step) => ({
          kind: step.desired.label.split(' ')[0],
          namespace: step.desired.namespace,
          name: step.desired.name,
          target: step.desired.target,
          id: dryRun && step.action === 'created' ? null : step.id,
          action: step.action,
          changes: step.changes,
        })),
        skipped: mapped.skipped,
        ignored: mapped.ignored,
        locations: mapped.locations,
      };
      return ok(answer);
    },
  );
};
