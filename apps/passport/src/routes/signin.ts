import { ApiError, badRequest, grants, newId, ok, principalOf, responses } from '@platform/core';
import {
  LOGIN_COOKIE,
  LOGIN_TTL_MS,
  clearLoginCookie,
  clearSessionCookie,
  originOf,
  safeReturnTo,
  setLoginCookie,
  setSessionCookie,
} from '../domain/browser.js';
import { personOf, scopeList, sealedTokens } from '../domain/claims.js';
import { newSessionToken, sha256 } from '../domain/keys.js';
import { client, grantError, signInProvider } from '../domain/oidc.js';
import { tokenVault } from '../domain/vault.js';
import { upsertConnection } from '../repositories/connections.js';
import { insertLoginState, takeLoginState } from '../repositories/login-states.js';
import { insertSession, revokeSession } from '../repositories/sessions.js';
import { CallbackQuery, IdentitySchema, LoginQuery, LogoutSchema } from '../schemas/signin.js';
import { forgetCredentials } from '../domain/resolver.js';
import type { PassportRoutes } from '../domain/state.js';

const AUTH_OFF =
  'Authentication is off (OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and SESSION_SECRET are not set): there is nothing to sign in to';
const START_AGAIN = 'start again at /api/v1/passport/login';

/** Sign-in through the OpenID provider (authorization code, PKCE S256, state, nonce), sign-out, /me. */
export const signInRoutes: PassportRoutes = async (app, ctx) => {
  const { db, config, auth } = ctx;
  const { audited } = ctx.state;
  const vault = tokenVault(auth);
  const provider = auth.oidc ? signInProvider(auth.oidc) : undefined;
  const prefix = app.prefix;
  const isGoogle = auth.oidc?.issuer === 'https://accounts.google.com';

  app.get(
    '/login',
    {
      config: { access: { resource: 'passport.session', action: 'create', rule: 'public' } },
      schema: {
        operationId: 'login',
        summary: 'Sign in through the identity provider',
        description:
          'Answers 302 to the provider (authorization code with PKCE S256, state and nonce); its answer comes back to /callback, which sets the session cookie and goes to returnTo. 400 when authentication is off.',
        querystring: LoginQuery,
      },
    },
    async (request, reply) => {
      if (!provider || !vault) throw badRequest(AUTH_OFF);
      const configuration = await provider();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      const extra = scopeList(request.query.scopes);
      const redirectUri = `${originOf(request, config)}${prefix}/callback`;
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: [...new Set([...config.scopes, ...extra])].join(' '),
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      };
      // Google gives a refresh token for the extra scopes only when asked for offline access.
      if (isGoogle && extra.length > 0)
        Object.assign(parameters, { access_type: 'offline', prompt: 'consent' });
      await insertLoginState(db, {
        state_hash: sha256(state),
        kind: 'signin',
        secrets: vault.seal(JSON.stringify({ nonce, verifier })),
        redirect_uri: redirectUri,
        return_to: safeReturnTo(request.query.returnTo),
        scopes: extra,
        expires_at: new Date(Date.now() + LOGIN_TTL_MS),
      });
      setLoginCookie(request, reply, config, prefix, state);
      return reply.redirect(client.buildAuthorizationUrl(configuration, parameters).href, 302);
    },
  );

  app.get(
    '/callback',
    {
      // The URL holds the code and state: its incoming-request line stays out of the log.
      logLevel: 'warn',
      config: { access: { resource: 'passport.session', action: 'create', rule: 'public' } },
      schema: {
        operationId: 'loginCallback',
        summary: "The identity provider's answer to a sign-in",
        description:
          'Checks the state against the sign-in this browser started (single use, 10 minutes), exchanges the code, verifies the ID token (nonce included), makes the session and answers 302 to returnTo. 400 for an unknown, mismatched or expired state, 401 when the provider refused or its answer failed verification, 403 for an unverified email or a domain outside AUTH_ALLOWED_DOMAINS. Nothing is stored on any error.',
        querystring: CallbackQuery,
      },
    },
    async (request, reply) => {
      if (!provider || !vault) throw badRequest(AUTH_OFF);
      const { state, error, error_description: description } = request.query;
      const started = request.cookies[LOGIN_COOKIE];
      if (!state) throw badRequest(`The answer has no state; ${START_AGAIN}`);
      if (!started)
        throw badRequest(
          `No sign-in is under way in this browser (its login cookie is missing or expired); ${START_AGAIN}`,
        );
      // Another tab may have started a sign-in since: its state and cookie stay, only this answer
      // is refused.
      if (started !== state)
        throw badRequest(
          `The state does not match the sign-in this browser started; ${START_AGAIN}`,
        );
      clearLoginCookie(reply, prefix);
      const row = await takeLoginState(db, sha256(state));
      if (!row || row.kind !== 'signin')
        throw badRequest(`Unknown sign-in state (already used, or never issued); ${START_AGAIN}`);
      if (row.expires_at.getTime() <= Date.now())
        throw badRequest(`The sign-in took longer than 10 minutes; ${START_AGAIN}`);
      if (error)
        throw new ApiError(
          'UNAUTHORIZED',
          `The identity provider refused the sign-in: ${error}${description ? ` (${description})` : ''}`,
        );
      const { nonce, verifier } = JSON.parse(vault.open(row.secrets)) as Record<string, string>;
      const configuration = await provider();
      const answer = new URL(row.redirect_uri);
      answer.search = request.url.slice(request.url.indexOf('?'));
      const tokens = await client
        .authorizationCodeGrant(configuration, answer, {
          expectedState: state,
          expectedNonce: nonce,
          pkceCodeVerifier: verifier,
        })
        .catch((failure: unknown) => {
          throw grantError(failure, 'The sign-in');
        });
      const person = await personOf(configuration, tokens, config);
      const token = newSessionToken();
      const sessionId = newId();
      const scopes = [...new Set([...config.scopes, ...row.scopes])];
      await audited(
        {
          action: 'user.signin',
          actor: person.email,
          resource: `session:${sessionId}`,
          metadata: { name: person.name, subject: person.subject },
        },
        async (trx) => {
          await insertSession(trx, {
            id: sessionId,
            token_hash: sha256(token),
            ...person,
            expires_at: new Date(Date.now() + config.sessionMaxAgeMs),
          });
          const key = { id: newId(), provider: 'signin', email: person.email };
          await upsertConnection(trx, key, sealedTokens(tokens, vault.seal, scopes));
        },
      );
      setSessionCookie(request, reply, config, token);
      return reply.redirect(row.return_to, 302);
    },
  );

  app.post(
    '/logout',
    {
      config: { access: { resource: 'passport.session', action: 'delete', rule: 'public' } },
      schema: {
        operationId: 'logout',
        summary: "End the caller's session",
        description:
          'Ends the session of the cookie sent (at once, everywhere) and clears the cookie; signedOut is false when there was no live session.',
        response: responses({ 200: LogoutSchema }),
      },
    },
    async (request, reply) => {
      const identity = request.identity;
      clearSessionCookie(reply);
      if (identity.kind !== 'user') return ok({ signedOut: false });
      const { email, sessionId } = identity;
      await audited(
        { action: 'user.signout', actor: email, resource: `session:${sessionId}` },
        (trx) => revokeSession(trx, sessionId),
      );
      forgetCredentials();
      return ok({ signedOut: true });
    },
  );

  app.get(
    '/me',
    {
      // Any valid key may learn what it is (a standalone service asks this with the caller's key,
      // whatever its scopes): no scope needed.
      config: { access: { resource: 'passport.identity', action: 'read', scope: null } },
      schema: {
        operationId: 'me',
        summary: 'Who is calling',
        description:
          'The caller: a signed-in user (email, name, sessionId, role, groups, teams), an API key (keyId, name, role, scopes, owner, team, teams), a platform service, or anonymous when authentication is off.',
        response: responses({ 200: IdentitySchema }),
      },
    },
    async ({ identity }) => {
      if (identity.kind !== 'user' && identity.kind !== 'key') return ok(identity);
      // A key that may not read the identity service (a write-only key in a web page) learns
      // what it is, not whose: its owner and teams stay unsaid (a standalone service checking
      // it then lets it own nothing).
      if (identity.kind === 'key' && !grants(identity.scopes, 'passport:read'))
        return ok({ ...identity, owner: null, team: null, teams: [] });
      const { teams } = await principalOf(identity, ctx.access.teams);
      return ok({ ...identity, teams: [...new Set(teams)] });
    },
  );
};
