import { newId, notFound, ok, orConflict, responses, Type, type Access } from '@platform/core';
import { isForeignKeyViolation } from '@platform/db';
import { appOwners } from '../domain/app-owners.js';
import { checkTarget } from '../domain/providers/targets.js';
import type { CommunicationRoutes } from '../domain/state.js';
import { channelIdOf, findChannel } from '../repositories/channels.js';
import {
  deleteRegistration,
  findRegistration,
  insertRegistration,
  listRegistrations,
  updateRegistration,
} from '../repositories/registrations.js';
import {
  AppParams,
  RegistrationInputSchema,
  RegistrationListQuery,
  RegistrationParams,
  RegistrationSchema,
  RegistrationUpdateSchema,
  toRegistration,
} from '../schemas/registrations.js';

export const registrationRoutes: CommunicationRoutes = async (app, { db, platform }) => {
  /** Private: an app's registrations are its owners' (and admins'), read and written. */
  const owner = appOwners(platform);
  const resource = 'communication.registration';
  const READ: Access = { resource, action: 'read', rule: 'owner', owner };
  const CREATE: Access = { resource, action: 'create', rule: 'owner', owner };
  const UPDATE: Access = { resource, action: 'update', rule: 'owner', owner };
  const DELETE: Access = { resource, action: 'delete', rule: 'owner', owner };

  /** The app's registration by its id or its channel's id or name; NOT_FOUND otherwise. */
  async function registration(appId: string, ref: string) {
    const row = await findRegistration(db, appId, ref);
    if (!row) throw notFound('Registration', `${ref} (app ${appId})`);
    return row;
  }

  app.get(
    '/apps/:appId/channels',
    {
      config: { access: READ },
      schema: {
        operationId: 'listRegistrations',
        summary: "List an app's channel registrations, newest first",
        description: '`channelId` (an id or a name) keeps those of one channel.',
        params: AppParams,
        querystring: RegistrationListQuery,
        response: responses({ 200: Type.Array(RegistrationSchema) }),
      },
    },
    async (request) => {
      const { channelId: ref, limit, offset } = request.query;
      const channelId = ref === undefined ? undefined : await channelIdOf(db, ref);
      if (ref !== undefined && channelId === undefined) return ok([]);
      const rows = await listRegistrations(
        db,
        request.params.appId,
        { channelId },
        { limit, offset },
      );
      return ok(rows.map(toRegistration));
    },
  );

  app.post(
    '/apps/:appId/channels',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createRegistration',
        summary: 'Register an app on a channel',
        description:
          'Enabled at creation. `target` is where its messages go (email addresses for smtp). 404 for an unknown channel; 409 CONFLICT when the app is registered on that channel already.',
        params: AppParams,
        body: RegistrationInputSchema,
        response: responses({ 201: RegistrationSchema }),
      },
    },
    async (request, reply) => {
      const { appId } = request.params;
      const { channelId, target = '', metadata = {} } = request.body;
      const channel = await findChannel(db, channelId);
      checkTarget(channel.provider, target, 'target');
      const row = await orConflict(
        () =>
          insertRegistration(db, {
            id: newId(8, 'reg_'),
            app_id: appId,
            channel_id: channel.id,
            target: target.trim(),
            metadata,
          }),
        `App ${appId} is registered on channel ${channel.name} already`,
      ).catch((error: unknown) => {
        // The channel was deleted between the lookup and the insert.
        if (isForeignKeyViolation(error)) throw notFound('Channel', channelId);
        throw error;
      });
      return reply.code(201).send(ok(toRegistration(row)));
    },
  );

  app.get(
    '/apps/:appId/channels/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getRegistration',
        summary: 'Get one registration',
        description: '`:id` is the registration id, or its channel id or name.',
        params: RegistrationParams,
        response: responses({ 200: RegistrationSchema }),
      },
    },
    async (request) =>
      ok(toRegistration(await registration(request.params.appId, request.params.id))),
  );

  app.patch(
    '/apps/:appId/channels/:id',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateRegistration',
        summary: 'Change a registration',
        description: '`enabled`, `target`, `metadata` (replaced whole); fields left out are kept.',
        params: RegistrationParams,
        body: RegistrationUpdateSchema,
        response: responses({ 200: RegistrationSchema }),
      },
    },
    async (request) => {
      const { appId, id } = request.params;
      const found = await registration(appId, id);
      const { enabled, target, metadata } = request.body;
      if (target !== undefined) {
        const channel = await findChannel(db, found.channel_id);
        checkTarget(channel.provider, target, 'target');
      }
      const row = await updateRegistration(db, found.id, {
        enabled,
        target: target?.trim(),
        metadata,
      });
      if (!row) throw notFound('Registration', `${id} (app ${appId})`);
      return ok(toRegistration(row));
    },
  );

  app.delete(
    '/apps/:appId/channels/:id',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteRegistration',
        summary: 'Delete a registration',
        description: 'Answers with the registration as it was; its deliveries stay on record.',
        params: RegistrationParams,
        response: responses({ 200: RegistrationSchema }),
      },
    },
    async (request) => {
      const { appId, id } = request.params;
      const row = await deleteRegistration(db, (await registration(appId, id)).id);
      if (!row) throw notFound('Registration', `${id} (app ${appId})`);
      return ok(toRegistration(row));
    },
  );
};
