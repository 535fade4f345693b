import {
  conflict,
  nameTaken,
  newId,
  notFound,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
} from '@platform/core';
import { isForeignKeyViolation } from '@platform/db';
import { secretVault, storableConfig } from '../domain/providers/channel-config.js';
import type { CommunicationRoutes } from '../domain/state.js';
import {
  appsOnChannel,
  deleteChannel,
  findChannel,
  insertChannel,
  listChannels,
  updateChannel,
} from '../repositories/channels.js';
import {
  ChannelInputSchema,
  ChannelListQuery,
  ChannelParams,
  ChannelSchema,
  ChannelUpdateSchema,
  toChannel,
} from '../schemas/channels.js';

/**
 * Channels are platform configuration: admins write them; every signed-in caller reads them
 * (their config holds `env:` references and masks, never a secret).
 */
const READ: Access = { resource: 'communication.channel', action: 'read' };
const CREATE: Access = { resource: 'communication.channel', action: 'create', rule: 'admin' };
const UPDATE: Access = { resource: 'communication.channel', action: 'update', rule: 'admin' };
const DELETE: Access = { resource: 'communication.channel', action: 'delete', rule: 'admin' };

export const channelRoutes: CommunicationRoutes = async (app, { db, auth, config: variables }) => {
  const vault = secretVault(auth);

  app.get(
    '/channels',
    {
      config: { access: READ },
      schema: {
        operationId: 'listChannels',
        summary: 'List channels by name',
        description: '`status` keeps the active or the disabled ones.',
        querystring: ChannelListQuery,
        response: responses({ 200: Type.Array(ChannelSchema) }),
      },
    },
    async (request) => {
      const { status, limit, offset } = request.query;
      return ok((await listChannels(db, { status }, { limit, offset })).map(toChannel));
    },
  );

  app.post(
    '/channels',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createChannel',
        summary: 'Create a channel',
        description:
          "`config` is checked against the provider (400 naming the key); each env:CHANNEL_X reference must be bound to the channel's host or URL by CHANNEL_X_DESTINATION (400 naming the variable and the host). 409 CONFLICT when a channel has that name already, in any case.",
        body: ChannelInputSchema,
        response: responses({ 201: ChannelSchema }),
      },
    },
    async (request, reply) => {
      const { name, provider, description = null, config = {} } = request.body;
      const stored = storableConfig(provider, config, vault, variables);
      const row = await orConflict(
        () =>
          insertChannel(db, { id: newId(8, 'ch_'), name, provider, description, config: stored }),
        nameTaken('Channel', name),
      );
      return reply.code(201).send(ok(toChannel(row)));
    },
  );

  app.get(
    '/channels/:id',
    {
      config: { access: READ },
      schema: {
        operationId: 'getChannel',
        summary: 'Get one channel by id or name',
        params: ChannelParams,
        response: responses({ 200: ChannelSchema }),
      },
    },
    async (request) => ok(toChannel(await findChannel(db, request.params.id))),
  );

  app.patch(
    '/channels/:id',
    {
      config: { access: UPDATE },
      schema: {
        operationId: 'updateChannel',
        summary: 'Change a channel',
        description:
          '`status` (active or disabled), `description` (null clears it), `config` (the whole config, checked as at creation; a secret sent as "********" keeps the stored one). The provider cannot change.',
        params: ChannelParams,
        body: ChannelUpdateSchema,
        response: responses({ 200: ChannelSchema }),
      },
    },
    async (request) => {
      const channel = await findChannel(db, request.params.id);
      const { status, description, config } = request.body;
      const stored =
        config && storableConfig(channel.provider, config, vault, variables, channel.config);
      const row = await updateChannel(db, channel.id, { status, description, config: stored });
      if (!row) throw notFound('Channel', request.params.id);
      return ok(toChannel(row));
    },
  );

  app.delete(
    '/channels/:id',
    {
      config: { access: DELETE },
      schema: {
        operationId: 'deleteChannel',
        summary: 'Delete a channel',
        description:
          'Answers with the channel as it was. 409 CONFLICT while apps are registered on it (delete their registrations first); its deliveries stay on record.',
        params: ChannelParams,
        response: responses({ 200: ChannelSchema }),
      },
    },
    async (request) => {
      const channel = await findChannel(db, request.params.id);
      const apps = await appsOnChannel(db, channel.id);
      if (apps.length > 0)
        throw conflict(
          `Channel ${channel.name} is registered by apps ${apps.join(', ')}: delete those registrations first`,
        );
      // A registration made meanwhile is a foreign key violation: the same 409.
      const row = await deleteChannel(db, channel.id).catch((error: unknown) => {
        if (!isForeignKeyViolation(error)) throw error;
        throw conflict(
          `Channel ${channel.name} is registered by an app: delete its registrations first`,
        );
      });
      if (!row) throw notFound('Channel', request.params.id);
      return ok(toChannel(row));
    },
  );
};
