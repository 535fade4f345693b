import { ownershipFor, type AuthorizationOptions, type Identity } from '@platform/core';

// Ownership of the records a person makes (issue 31): shared by the route files. Both may ask
// the teams directory, so they run before a write's transaction (on the embedded database the
// directory's own query would wait for it).

/** The ownership columns of a new record: the caller, and the team it names (403 if not theirs). */
export async function ownershipColumns(
  identity: Identity,
  team: string | null | undefined,
  access: AuthorizationOptions,
) {
  const owner = await ownershipFor(identity, team, access);
  return { created_by: owner.createdBy, team: owner.team };
}

/** The team an update sets: undefined keeps it, null clears it, a name is checked as on create. */
export async function teamChange(
  identity: Identity,
  team: string | null | undefined,
  access: AuthorizationOptions,
) {
  if (team == null) return team;
  return (await ownershipFor(identity, team, access)).team;
}
