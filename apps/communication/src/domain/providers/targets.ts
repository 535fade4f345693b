import { badRequest } from '@platform/core';
import type { Provider } from '../../database.js';

const ADDRESS = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/**
 * Checks a target for a channel's provider: for smtp, one or more email addresses separated by
 * commas (`field` names it in the message); free text for the others. Empty passes: a send must
 * then give `to`.
 */
export function checkTarget(provider: Provider, target: string, field: string) {
  if (provider !== 'smtp' || target.trim() === '') return;
  const wrong = target
    .split(',')
    .map((a) => a.trim())
    .filter((a) => !ADDRESS.test(a));
  if (wrong.length > 0)
    throw badRequest(
      `${field} must be email addresses separated by commas for an smtp channel; not an address: ${wrong[0] || '(empty)'}`,
    );
}
