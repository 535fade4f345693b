import { MiB, type Access } from '@platform/core';
import { INVOKE } from '../calls.js';

/**
 * The compatible routes take the platform key as the SDKs send it, `Authorization: Bearer <key>`
 * as well as `X-API-Key` (libs/core: `keyFrom`), and need the scope of every call, inference:invoke.
 */
export const COMPAT_INVOKE: Access = { ...INVOKE, keyFrom: ['bearer'] };
/** Listing models is part of using them: the invoke scope suffices, and any signed-in caller. */
export const COMPAT_LIST: Access = {
  resource: 'inference.model',
  action: 'read',
  rule: 'viewer',
  scope: 'inference:invoke',
  keyFrom: ['bearer'],
};

export const OPENAI_TAG = 'OpenAI-compatible';
export const ANTHROPIC_TAG = 'Anthropic-compatible';

/** The parameters of a request other than `known`: a 400 naming the first, never dropped. */
export function refuseUnknown(body: Record<string, unknown>, known: readonly string[]) {
  for (const key of Object.keys(body))
    if (!known.includes(key) && body[key] !== undefined && body[key] !== null)
      return `Unsupported parameter: ${key} is not supported by this API`;
  return undefined;
}

/** The body limit of the compatible chat routes: images travel inline, as base64. */
export const COMPAT_BODY_LIMIT = 20 * MiB;
