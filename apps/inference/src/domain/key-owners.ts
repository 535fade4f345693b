import type { FastifyRequest } from 'fastify';
import {
  badGateway,
  badRequest,
  isPlatformError,
  notFound,
  serviceUnavailable,
  type ServiceContext,
} from '@platform/core';

type PlatformClient = ServiceContext['platform'];

export interface KeyRecord {
  id: string;
  name: string;
  createdBy: string | null;
  team: string | null;
}

const seen = new WeakMap<FastifyRequest, Promise<KeyRecord | undefined>>();

/**
 * The platform API key a request names (`:keyId`, its id or name), as the identity service keeps
 * it: undefined when there is none. Asked once per request (the access policy's owner check and
 * the handler share it); the identity service unreachable is a 503.
 */
export function keyOfRequest(
  platform: PlatformClient,
  request: FastifyRequest,
): Promise<KeyRecord | undefined> {
  let found = seen.get(request);
  if (!found) {
    const { keyId } = request.params as { keyId?: string };
    found = keyId ? lookup(platform, keyId) : Promise.resolve(undefined);
    seen.set(request, found);
  }
  return found;
}

async function lookup(platform: PlatformClient, keyId: string) {
  try {
    const key = await platform.passport.getKey({ path: { idOrName: keyId } });
    return { id: key.id, name: key.name, createdBy: key.createdBy, team: key.team };
  } catch (error) {
    if (isPlatformError(error) && error.status === 404) return undefined;
    // The id itself is malformed (e.g. a NUL character): the caller's input, not an outage.
    if (isPlatformError(error) && error.status === 400) throw badRequest(error.message);
    if (isPlatformError(error))
      throw badGateway(`The identity service failed (${error.status}): ${error.message}`, error);
    throw serviceUnavailable(
      `The identity service cannot be reached to find key ${keyId}: ${(error as Error).message}`,
      error,
    );
  }
}

/** The key, or a 404 naming it. */
export async function existingKey(platform: PlatformClient, request: FastifyRequest) {
  const key = await keyOfRequest(platform, request);
  if (!key) throw notFound('Key', (request.params as { keyId: string }).keyId);
  return key;
}
