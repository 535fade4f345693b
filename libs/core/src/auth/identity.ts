// The cookie plugin's request and reply types (`request.cookies`, `reply.setCookie`), for every app.
/// <reference types="@fastify/cookie" preserve="true" />

/** What a person may do across the platform (issue 31): viewers read, members also write. */
export const ROLES = ['viewer', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling: set on every request (`request.identity`) before any handler runs. */
export type Identity =
  /** A person signed in through the identity provider, by the session cookie. */
  | {
      kind: 'user';
      email: string;
      name: string;
      sessionId: string;
      role: Role;
      /** The OpenID `groups` claim at sign-in: a group named like a catalog owner is that team. */
      groups: string[];
    }
  /**
   * A client holding an API key (X-API-Key): it may do what its scopes allow, and never more than
   * `role` (its creator's role now, or for a team key the role it was made with).
   */
  | {
      kind: 'key';
      keyId: string;
      name: string;
      role: Role;
      scopes: string[];
      /** The email of the person who made it (null for the bootstrap key and team keys). */
      owner: string | null;
      /** A team key (a service account): it acts as a member of that team. */
      team: string | null;
    }
  /**
   * A platform service calling another one (a workflow step, git asking for a token); `user` is
   * the email of the person it acts for, when it acts for one (from that person's own request).
   */
  | { kind: 'service'; name: string; user?: string; via?: string }
  /** Authentication is off: everyone is anonymous. */
  | { kind: 'anonymous' };

export const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/** What a request may present: the X-API-Key header, the session cookie's value. */
export interface Credentials {
  apiKey?: string;
  sessionToken?: string;
}

/** Checks credentials: the identity they stand for, or null when they are not (or no longer) valid. */
export type CredentialResolver = (credentials: Credentials) => Promise<Identity | null>;

/** The session cookie the identity service sets and the gateway reads. */
export const SESSION_COOKIE = 'platform_session';
/** The header carrying a signed identity from the gateway (or a service) to a service. */
export const IDENTITY_HEADER = 'x-platform-identity';
export const API_KEY_HEADER = 'x-api-key';

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
  }
  interface FastifyContextConfig {
    /** Answers without credentials (sign-in routes, /healthz); identifies the caller when it can. */
    public?: boolean;
    /**
     * A proxy's route: the in-process copy of the service it forwards to, whose route table says
     * what each request needs (the gateway decides as the service would, never by path prefix).
     */
    proxiedTo?: import('fastify').FastifyInstance;
  }
}

/** A readable name for logs and audit trails: an email, a key's name, a service. */
export function describeIdentity(identity: Identity): string {
  switch (identity.kind) {
    case 'user':
      return identity.email;
    case 'key':
      return `key:${identity.name}`;
    case 'service':
      return identity.via ?? identity.user ?? `service:${identity.name}`;
    default:
      return 'anonymous';
  }
}
