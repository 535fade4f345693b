import {
  badRequest,
  IdOrNameParams,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
} from '@platform/core';
import {
  FIXED_ENDPOINTS,
  SECRET_REFERENCE,
  SECRET_REFERENCE_RULE,
  SIGNIN,
} from '../domain/delegation.js';
import { checkEndpoint } from '../domain/oidc.js';
import {
  deleteProvider,
  findProvider,
  insertProvider,
  listProviders,
} from '../repositories/providers.js';
import {
  ProviderInputSchema,
  ProviderListQuery,
  ProviderSchema,
  toProvider,
} from '../schemas/providers.js';
import type { PassportRoutes } from '../domain/state.js';

export const providerRoutes: PassportRoutes = async (app, { db }) => {
  app.post(
    '/providers',
    {
      config: { access: { resource: 'passport.provider', action: 'create', rule: 'admin' } },
      schema: {
        operationId: 'createProvider',
        summary: 'Register an OAuth provider for delegated tokens',
        description:
          "Admins only (403). type github or google has fixed endpoints (sending authorizeUrl or tokenUrl is a 400); oauth2 needs authorizeUrl and tokenUrl (https; http only on localhost). clientSecret must be env:OAUTH_<NAME>, a variable holding only this provider's secret: anything else is refused (400). 409 when the name is taken.",
        body: ProviderInputSchema,
        response: responses({ 201: ProviderSchema }),
      },
    },
    async (request, reply) => {
      const { name, type, clientId, clientSecret, scopes = [] } = request.body;
      if (name.toLowerCase() === SIGNIN)
        throw badRequest(`name ${SIGNIN} is reserved for the sign-in provider`);
      if (!SECRET_REFERENCE.test(clientSecret)) throw badRequest(SECRET_REFERENCE_RULE);
      const fixed = FIXED_ENDPOINTS[type];
      if (fixed && (request.body.authorizeUrl !== undefined || request.body.tokenUrl !== undefined))
        throw badRequest(
          `type ${type} has fixed endpoints: authorizeUrl and tokenUrl are for type oauth2 only`,
        );
      const authorizeUrl = fixed?.authorizeUrl ?? request.body.authorizeUrl;
      const tokenUrl = fixed?.tokenUrl ?? request.body.tokenUrl;
      if (!authorizeUrl) throw badRequest(`authorizeUrl is required for type ${type}`);
      if (!tokenUrl) throw badRequest(`tokenUrl is required for type ${type}`);
      const problem =
        checkEndpoint(authorizeUrl, 'authorizeUrl') ?? checkEndpoint(tokenUrl, 'tokenUrl');
      if (problem) throw badRequest(problem);
      const row = await orConflict(
        () =>
          insertProvider(db, {
            id: newId(),
            name,
            type,
            client_id: clientId,
            client_secret: clientSecret,
            authorize_url: authorizeUrl,
            token_url: tokenUrl,
            scopes: [...new Set(scopes)],
          }),
        nameTaken('Provider', name),
      );
      return reply.code(201).send(ok(toProvider(row)));
    },
  );

  app.get(
    '/providers',
    {
      config: { access: { resource: 'passport.provider', action: 'read' } },
      schema: {
        operationId: 'listProviders',
        summary: 'List OAuth providers by name',
        querystring: ProviderListQuery,
        response: responses({ 200: Type.Array(ProviderSchema) }),
      },
    },
    async ({ query }) => ok((await listProviders(db, query)).map(toProvider)),
  );

  app.get(
    '/providers/:idOrName',
    {
      config: { access: { resource: 'passport.provider', action: 'read' } },
      schema: {
        operationId: 'getProvider',
        summary: 'Get one OAuth provider',
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => ok(toProvider(await findProvider(db, request.params.idOrName))),
  );

  app.delete(
    '/providers/:idOrName',
    {
      config: { access: { resource: 'passport.provider', action: 'delete', rule: 'admin' } },
      schema: {
        operationId: 'deleteProvider',
        summary: 'Delete an OAuth provider',
        description:
          "Admins only (403). Deletes its users' connections (their tokens) with it; answers it as it was.",
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => {
      const { idOrName } = request.params;
      const row = await deleteProvider(db, (await findProvider(db, idOrName)).id);
      if (!row) throw notFound('Provider', idOrName);
      return ok(toProvider(row));
    },
  );
};
