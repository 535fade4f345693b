import { PagedQuery, StampsAt, stampsAt, Type, type Static } from '@platform/core';
import type { RegistrationRow } from '../database.js';

export const APP_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';

export const AppId = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: APP_ID_PATTERN,
  description:
    "The app: a published app's sid in stage (whose owners it belongs to), or any name up to 100 characters (admins only)",
});

const Target = Type.String({
  maxLength: 2000,
  description:
    'Where its messages go: for smtp, one or more addresses separated by commas; free text for the others',
});

export const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Free-form JSON object',
});

export const RegistrationSchema = Type.Object({
  id: Type.String({ description: 'reg_ and 8 random characters' }),
  appId: Type.String(),
  channelId: Type.String(),
  target: Type.String(),
  metadata: Metadata,
  enabled: Type.Boolean(),
  ...StampsAt,
});
export type Registration = Static<typeof RegistrationSchema>;

export const toRegistration = (row: RegistrationRow): Registration => ({
  id: row.id,
  appId: row.app_id,
  channelId: row.channel_id,
  target: row.target,
  metadata: row.metadata,
  enabled: row.enabled,
  ...stampsAt(row.created_at, row.updated_at),
});

export const RegistrationInputSchema = Type.Object({
  channelId: Type.String({ minLength: 1, description: 'The channel: its id or its name' }),
  target: Type.Optional(Target),
  metadata: Type.Optional(Metadata),
});

export const RegistrationUpdateSchema = Type.Object({
  enabled: Type.Optional(Type.Boolean()),
  target: Type.Optional(Target),
  metadata: Type.Optional(Metadata),
});

export const AppParams = Type.Object({ appId: AppId });
export const RegistrationParams = Type.Object({
  appId: AppId,
  id: Type.String({
    minLength: 1,
    description: "The registration's id, or its channel's id or name",
  }),
});

export const RegistrationListQuery = PagedQuery({
  channelId: Type.Optional(
    Type.String({
      minLength: 1,
      description: 'Only the registrations of this channel (id or name)',
    }),
  ),
});
