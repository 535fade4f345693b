import {
  createClient,
  httpTransport,
  injectTransport,
  type PlatformClient,
  type Transport,
} from '@platform/client';
import { describeIdentity, IDENTITY_HEADER, type Identity } from './identity.js';
import type { AuthSettings } from './settings.js';
import { signIdentity } from './tokens.js';

type Injectable = Parameters<typeof injectTransport>[0];

/** How a service reaches the others: the gateway it is mounted in, or the gateway's URL. */
export interface PlatformLink {
  /** In-process: the gateway's app (known once it is built). */
  app?: () => Injectable;
  /** Over HTTP: the gateway's base URL (PLATFORM_URL). */
  url?: string;
}

/** The headers that identify `service` to another one: a signed identity when authentication is on. */
export async function serviceIdentityHeaders(
  auth: AuthSettings,
  service: string,
  user?: string,
  via?: string,
): Promise<Record<string, string>> {
  if (!auth.enabled) return {};
  const identity = {
    kind: 'service' as const,
    name: service,
    ...(user ? { user } : {}),
    ...(via && via !== user ? { via } : {}),
  };
  const token = await signIdentity(auth.sessionSecret as string, identity);
  return { [IDENTITY_HEADER]: token };
}

/**
 * The typed client of every service, as `service` calls them: each request carries a freshly
 * signed identity of that service when authentication is on, naming the person it acts for when
 * `actingFor` is a person or a person's key (so that, e.g., the identity service hands out only that
 * person's delegated tokens). `extraHeaders` go with every request (e.g. `x-stage-app`, which the
 * inference service honours from the stage service only).
 */
export function platformClient(
  service: string,
  link: PlatformLink,
  auth: AuthSettings,
  actingFor?: Identity,
  extraHeaders: Record<string, string> = {},
) {
  // The person it acts for: a signed-in user, a personal key's owner, the person a service acts
  // for; `via` names the caller itself (a key) for the audit trail.
  const user =
    actingFor?.kind === 'user'
      ? actingFor.email
      : actingFor?.kind === 'key'
        ? (actingFor.owner ?? undefined)
        : actingFor?.kind === 'service'
          ? actingFor.user
          : undefined;
  const via = actingFor && actingFor.kind !== 'anonymous' ? describeIdentity(actingFor) : undefined;
  // An app's backend (the sandbox's app identity, `app:<sid>`) is not the platform's code: the
  // other services decide its calls by its own role and scopes, not as the service's.
  const app = actingFor?.kind === 'key' && actingFor.keyId.startsWith('app:') ? actingFor : null;
  const identify = async () =>
    app && auth.enabled
      ? { [IDENTITY_HEADER]: await signIdentity(auth.sessionSecret as string, app) }
      : serviceIdentityHeaders(auth, service, user, via);
  const transport: Transport = {
    async send(request) {
      const headers = { ...extraHeaders, ...(await identify()) };
      if (link.app) return injectTransport(link.app(), headers).send(request);
      if (link.url) return httpTransport(link.url, { headers }).send(request);
      throw new Error(
        `${service} cannot reach the other services: set PLATFORM_URL to the gateway's URL`,
      );
    },
  };
  return createClient(transport) as PlatformClient;
}
