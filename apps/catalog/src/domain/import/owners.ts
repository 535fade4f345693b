import type { ExistingRow } from '../../repositories/import.js';
import type { Step } from './plan.js';

/** Parent cycles and groups with children turned into users, in the owners as they would be. */
export function ownerProblems(steps: Step[], owners: ExistingRow[]): string[] {
  const parent = new Map(owners.map((row) => [row.id, row.parent_id as string | null]));
  const names = new Map(owners.map((row) => [row.id, row.name]));
  const owned = steps.filter((step) => step.desired.target === 'owner');
  for (const step of owned) {
    parent.set(step.id, step.columns.parent_id as string | null);
    names.set(step.id, step.desired.name);
  }
  const problems: string[] = [];
  // An owner made before names lost their slash, `ns/name` in default, is the team `ns/name`.
  const slashed = new Map(
    owners
      .filter((row) => row.namespace.toLowerCase() === 'default' && row.name.includes('/'))
      .map((row) => [row.name.toLowerCase(), row]),
  );
  for (const step of owned) {
    const twin = slashed.get(`${step.desired.namespace}/${step.desired.name}`.toLowerCase());
    if (step.action === 'created' && twin)
      problems.push(
        `${step.desired.label}: its team name ${step.desired.namespace}/${step.desired.name} is taken by owner ${twin.id} (${twin.name} in default)`,
      );
  }
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
