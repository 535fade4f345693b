import {
  ApiError,
  describeIdentity,
  IdOrNameParams,
  newId,
  notFound,
  ok,
  responses,
  Type,
  type Identity,
} from '@platform/core';
import { LOGIN_TTL_MS, originOf, safeReturnTo } from '../domain/browser.js';
import { sealedTokens } from '../domain/claims.js';
import { delegatedTokens, providerConfiguration, SIGNIN } from '../domain/delegation.js';
import { sha256 } from '../domain/keys.js';
import { client, grantError } from '../domain/oidc.js';
import { tokenVault } from '../domain/vault.js';
import {
  deleteConnection,
  listConnections,
  upsertConnection,
} from '../repositories/connections.js';
import { insertLoginState, takeLoginState } from '../repositories/login-states.js';
import { findProvider, findProviderById } from '../repositories/providers.js';
import {
  ConnectionParams,
  ConnectionSchema,
  toConnection,
  ConnectQuery,
  TokenRequestSchema,
  TokenSchema,
} from '../schemas/providers.js';
import { CallbackQuery } from '../schemas/signin.js';
import type { PassportRoutes } from '../domain/state.js';

const forbidden = (message: string) => new ApiError('FORBIDDEN', message);

function signedInUser(identity: Identity) {
  if (identity.kind !== 'user') throw forbidden('Only a signed-in user has provider connections');
  return identity;
}

/** Delegated tokens: users connect providers; the platform's services get their tokens. */
export const connectionRoutes: PassportRoutes = async (app, ctx) => {
  const { db, config, auth } = ctx;
  const { audited } = ctx.state;
  const vault = tokenVault(auth);
  const tokenFor = vault && delegatedTokens(db, config, auth, vault);
  const prefix = app.prefix;

  app.get(
    '/providers/:idOrName/connect',
    {
      config: { access: { resource: 'passport.connection', action: 'create', rule: 'viewer' } },
      schema: {
        operationId: 'connectProvider',
        summary: 'Connect the signed-in user to a provider',
        description:
          "Answers 302 to the provider's consent page (state and PKCE S256); its answer comes back to /providers/callback, which stores the tokens encrypted and goes to returnTo. 403 for anyone but a signed-in user.",
        params: IdOrNameParams,
        querystring: ConnectQuery,
      },
    },
    async (request, reply) => {
      const user = signedInUser(request.identity);
      const provider = await findProvider(db, request.params.idOrName);
      if (!vault) throw forbidden('Authentication is off: no user can connect a provider');
      const configuration = providerConfiguration(provider, config);
      const state = client.randomState();
      const verifier = client.randomPKCECodeVerifier();
      const redirectUri = `${originOf(request, config)}${prefix}/providers/callback`;
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      };
      if (provider.scopes.length > 0) parameters.scope = provider.scopes.join(' ');
      if (provider.type === 'google')
        Object.assign(parameters, { access_type: 'offline', prompt: 'consent' });
      await insertLoginState(db, {
        state_hash: sha256(state),
        kind: 'connect',
        secrets: vault.seal(JSON.stringify({ verifier })),
        redirect_uri: redirectUri,
        return_to: safeReturnTo(request.query.returnTo),
        scopes: provider.scopes,
        session_id: user.sessionId,
        provider_id: provider.id,
        expires_at: new Date(Date.now() + LOGIN_TTL_MS),
      });
      return reply.redirect(client.buildAuthorizationUrl(configuration, parameters).href, 302);
    },
  );

  app.get(
    '/providers/callback',
    {
      // The URL holds the code and state: its incoming-request line stays out of the log.
      logLevel: 'warn',
      config: { access: { resource: 'passport.connection', action: 'create', rule: 'public' } },
      schema: {
        operationId: 'connectCallback',
        summary: "A provider's answer to a connection",
        description:
          'The state must be one this service issued (single use, 10 minutes) to the session this browser is signed in with. Exchanges the code, stores the tokens encrypted, answers 302 to returnTo. 400 for an unknown or expired state, 401 without a session or when the provider refused, 403 for another session.',
        querystring: CallbackQuery,
      },
    },
    async (request, reply) => {
      const { state, error, error_description: description } = request.query;
      if (!state || !vault)
        throw new ApiError('BAD_REQUEST', 'The answer has no state; connect again');
      const row = await takeLoginState(db, sha256(state));
      if (!row || row.kind !== 'connect')
        throw new ApiError(
          'BAD_REQUEST',
          'Unknown connection state (already used, or never issued); connect again',
        );
      if (row.expires_at.getTime() <= Date.now())
        throw new ApiError(
          'BAD_REQUEST',
          'The connection took longer than 10 minutes; connect again',
        );
      const identity = request.identity;
      if (identity.kind !== 'user')
        throw new ApiError('UNAUTHORIZED', 'Sign in first: a connection belongs to a session');
      if (identity.sessionId !== row.session_id)
        throw forbidden('This connection was started by another session; connect again');
      const provider = row.provider_id ? await findProviderById(db, row.provider_id) : undefined;
      if (!provider) throw notFound('Provider', row.provider_id ?? '');
      if (error)
        throw new ApiError(
          'UNAUTHORIZED',
          `${provider.name} refused the connection: ${error}${description ? ` (${description})` : ''}`,
        );
      const { verifier } = JSON.parse(vault.open(row.secrets)) as Record<string, string>;
      const answer = new URL(row.redirect_uri);
      answer.search = request.url.slice(request.url.indexOf('?'));
      const tokens = await client
        .authorizationCodeGrant(providerConfiguration(provider, config), answer, {
          expectedState: state,
          pkceCodeVerifier: verifier,
        })
        .catch((failure: unknown) => {
          throw grantError(failure, `The connection to ${provider.name}`);
        });
      const sealed = sealedTokens(tokens, vault.seal, row.scopes);
      await audited(
        {
          action: 'provider.connected',
          actor: identity.email,
          resource: `provider:${provider.id}`,
          metadata: { provider: provider.name, scopes: sealed.scopes.join(' ') },
        },
        (trx) =>
          upsertConnection(
            trx,
            { id: newId(), provider: provider.id, email: identity.email },
            sealed,
          ),
      );
      return reply.redirect(row.return_to, 302);
    },
  );

  app.get(
    '/connections',
    {
      config: { access: { resource: 'passport.connection', action: 'read' } },
      schema: {
        operationId: 'listConnections',
        summary: "The signed-in user's provider connections",
        description: 'Never a token. 403 for anyone but a signed-in user.',
        response: responses({ 200: Type.Array(ConnectionSchema) }),
      },
    },
    async (request) => {
      const user = signedInUser(request.identity);
      return ok((await listConnections(db, user.email)).map(toConnection));
    },
  );

  app.delete(
    '/connections/:provider',
    {
      config: { access: { resource: 'passport.connection', action: 'delete', rule: 'viewer' } },
      schema: {
        operationId: 'deleteConnection',
        summary: "Forget the signed-in user's tokens at a provider",
        description: 'provider: its id or name, or signin. 404 when not connected.',
        params: ConnectionParams,
        response: responses({ 200: Type.Object({ provider: Type.String() }) }),
      },
    },
    async (request) => {
      const user = signedInUser(request.identity);
      const name = request.params.provider;
      const provider = name === SIGNIN ? SIGNIN : (await findProvider(db, name)).id;
      if (!(await deleteConnection(db, provider, user.email)))
        throw notFound('Connection', `${user.email} has not connected ${name}`);
      return ok({ provider });
    },
  );

  app.post(
    '/tokens',
    {
      config: { access: { resource: 'passport.token', action: 'read', rule: 'admin' } },
      schema: {
        operationId: 'getToken',
        summary: "A user's delegated token, for a platform service",
        description:
          "Only for the platform's own services (a signed service identity), and only the token of the person the service acts for (the identity's user): 403 for users, API keys, a service acting for nobody or for someone else. Refreshes an expired token first; 404 when the user never connected the provider, 409 when the token cannot be refreshed.",
        body: TokenRequestSchema,
        response: responses({ 200: TokenSchema }),
      },
    },
    async (request) => {
      const { identity } = request;
      if (identity.kind !== 'service')
        throw forbidden(
          `Delegated tokens are handed to the platform's services only, not to ${describeIdentity(identity)}`,
        );
      // `user`: the person the service acts for, signed with its identity (ctx.platformFor).
      const actingFor = identity.user;
      if (!actingFor || actingFor.toLowerCase() !== request.body.user.toLowerCase())
        throw forbidden('A service may only obtain the delegated token of the person it acts for');
      if (!tokenFor) throw forbidden('Authentication is off: there are no delegated tokens');
      return ok(await tokenFor(request.body.provider, request.body.user));
    },
  );
};
