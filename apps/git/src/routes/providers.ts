import {
  badRequest,
  conflict,
  IdOrNameParams,
  nameTaken,
  newId,
  ok,
  orConflict,
  ownershipFor,
  PagedQuery,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { allowedGithubUrl } from '../domain/access.js';
import {
  countRepositories,
  deleteProvider,
  findProvider,
  insertProvider,
  listProviders,
} from '../repositories/providers.js';
import { ProviderInputSchema, ProviderSchema, toProvider } from '../schemas/providers.js';
import type { GitRoutes } from '../domain/state.js';

/** Providers are platform configuration: anyone signed in reads them, admins change them. */
const READ: Access = { resource: 'git.provider', action: 'read' };
const CREATE: Access = { resource: 'git.provider', action: 'create', rule: 'admin' };
const DELETE: Access = { resource: 'git.provider', action: 'delete', rule: 'admin' };

export const providerRoutes: GitRoutes = async (app, { db, config, access }) => {
  app.get(
    '/providers',
    {
      config: { access: READ },
      schema: {
        operationId: 'listProviders',
        summary: 'List git providers, newest first',
        querystring: PagedQuery({}),
        response: responses({ 200: Type.Array(ProviderSchema) }),
      },
    },
    async (request) => ok((await listProviders(db, request.query)).map(toProvider)),
  );

  app.post(
    '/providers',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createProvider',
        summary: 'Register a git provider',
        description:
          'github: passportProviderId (required) names the identity service provider whose delegated tokens act; baseUrl for GitHub Enterprise (default https://api.github.com; any other must be listed in GIT_GITHUB_URLS, else 400). local: bare repositories kept under GIT_DATA_DIR (no passportProviderId, no baseUrl). 409 when the name is taken.',
        body: ProviderInputSchema,
        response: responses({ 201: ProviderSchema }),
      },
    },
    async (request, reply) => {
      const { name, type, passportProviderId, baseUrl, team } = request.body;
      if (type === 'github' && !passportProviderId)
        throw badRequest(
          'passportProviderId is required for a github provider: the identity service provider of its tokens',
        );
      if (type === 'local' && (passportProviderId !== undefined || baseUrl !== undefined))
        throw badRequest('A local provider takes neither passportProviderId nor baseUrl');
      const owner = await ownershipFor(request.identity, team, access);
      const row = await orConflict(
        () =>
          insertProvider(db, {
            id: newId(),
            name,
            type,
            passport_provider_id: passportProviderId ?? null,
            base_url: type === 'github' ? allowedGithubUrl(config, baseUrl) : null,
            created_by: owner.createdBy,
            team: owner.team,
          }),
        nameTaken('Provider', name),
      );
      return reply.code(201).send(ok(toProvider(row)));
    },
  );

  app.get(
    '/providers/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getProvider',
        summary: 'One git provider',
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => ok(toProvider(await findProvider(db, request.params.idOrName))),
  );

  app.delete(
    '/providers/:idOrName',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteProvider',
        summary: 'Delete a git provider',
        description:
          '409 while repositories are connected through it. Answers the provider as it was.',
        params: IdOrNameParams,
        response: responses({ 200: ProviderSchema }),
      },
    },
    async (request) => {
      const provider = await findProvider(db, request.params.idOrName);
      const repos = await countRepositories(db, provider.id);
      if (repos > 0)
        throw conflict(
          `Provider ${provider.name} has ${repos} connected repositories: delete them first`,
        );
      const row = await orConflict(
        async () => (await deleteProvider(db, provider.id)) ?? provider,
        `Provider ${provider.name} has connected repositories: delete them first`,
      );
      return ok(toProvider(row));
    },
  );
};
