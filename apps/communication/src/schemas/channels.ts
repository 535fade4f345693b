import { Name, Nullable, PagedQuery, StampsAt, stampsAt, Type, type Static } from '@platform/core';
import { CHANNEL_STATUSES, PROVIDERS, type ChannelRow } from '../database.js';
import { maskedConfig } from '../domain/providers/channel-config.js';

const Description = Type.String({
  maxLength: 2000,
  title: 'description',
  description: 'Free text, up to 2000 characters',
});

const CONFIG_DESCRIPTION =
  "Per provider: smtp {host, port, secure, user, pass, from}; slack {webhookUrl}; webhook {url, secret}; log {}; inbox {} (the platform's in-app inbox: the target is the recipient). " +
  'The secrets (smtp pass, slack webhookUrl, webhook secret) may be env:CHANNEL_<NAME>, resolved when sending, ' +
  "when CHANNEL_<NAME>_DESTINATION binds the variable to the channel's host or URL origin; " +
  'written literally they are stored encrypted and answered as "********". No other value may be an env: reference.';

/** Checked per provider by the route (channel-config.ts), which names the key that is wrong. */
export const ConfigSchema = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
  { description: CONFIG_DESCRIPTION },
);

export const ChannelSchema = Type.Object({
  id: Type.String({ description: 'ch_ and 8 random characters' }),
  name: Type.String(),
  provider: Type.Enum([...PROVIDERS]),
  description: Nullable(Type.String()),
  status: Type.Enum([...CHANNEL_STATUSES]),
  config: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
    description: 'Literal secrets masked as "********"; env: references as written',
  }),
  ...StampsAt,
});
export type Channel = Static<typeof ChannelSchema>;

export const toChannel = (row: ChannelRow): Channel => ({
  id: row.id,
  name: row.name,
  provider: row.provider,
  description: row.description,
  status: row.status,
  config: maskedConfig(row.provider, row.config),
  ...stampsAt(row.created_at, row.updated_at),
});

export const ChannelInputSchema = Type.Object({
  name: Name('channel name'),
  provider: Type.Enum([...PROVIDERS], { description: 'smtp, slack, webhook, log or inbox' }),
  description: Type.Optional(Nullable(Description)),
  config: Type.Optional(ConfigSchema),
});

export const ChannelUpdateSchema = Type.Object({
  status: Type.Optional(Type.Enum([...CHANNEL_STATUSES])),
  description: Type.Optional(Nullable(Description)),
  config: Type.Optional(ConfigSchema),
});

export const ChannelListQuery = PagedQuery({
  status: Type.Optional(Type.Enum([...CHANNEL_STATUSES])),
});

export const ChannelParams = Type.Object({
  id: Type.String({ minLength: 1, description: 'The id (exact) or the name (any case)' }),
});
