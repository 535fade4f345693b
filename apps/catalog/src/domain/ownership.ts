import type { FastifyRequest } from 'fastify';
import {
  describeIdentity,
  mayOwn,
  principalOf,
  type AuthorizationOptions,
  type Identity,
  type Ownership,
} from '@platform/core';

// Ownership of the records a person makes (issue 31), as an import checks it.

/**
 * Whether the caller may change a record as its owner (libs/core's `mayOwn`), answered without
 * asking anything once the caller's teams are known: they are asked here, before a transaction
 * that holds the database (on the embedded one, the teams directory's own query would wait for it).
 */
export async function ownerCheck(identity: Identity, access: AuthorizationOptions) {
  const { teams } = await principalOf(identity, access.authOn ? access.teams : undefined);
  const known: AuthorizationOptions = { ...access, teams: async () => teams };
  return (ownership: Ownership) => mayOwn(identity, ownership, known);
}

/** Records a denial the route decided itself (an import's) in the audit trail, as the hook does. */
export async function auditDenial(
  request: FastifyRequest,
  access: AuthorizationOptions,
  resource: string,
  missing: string,
) {
  await access
    .audit?.({
      actor: describeIdentity(request.identity),
      resource,
      metadata: {
        method: request.method,
        path: request.url.split('?')[0],
        action: 'update',
        missing,
        requestId: request.id,
      },
    })
    .catch((error: unknown) => request.log.warn({ err: error }, 'denial not audited'));
}
