import { Type } from '@platform/core';
import { SECRET_NAME } from '../domain/backends/secrets.js';
import { EpochMs } from './sessions.js';

export const SecretParams = Type.Object({
  sid: Type.String({ minLength: 1, maxLength: 100, description: 'The app sid or name' }),
  name: Type.String({
    pattern: SECRET_NAME,
    description: 'Like an environment variable (A-Z, 0-9, _; a letter first, at most 64): env.NAME',
  }),
});

export const SecretBody = Type.Object({
  value: Type.String({
    minLength: 1,
    description: 'The secret (at most STAGE_BACKEND_SECRET_MAX_BYTES): never answered again',
  }),
});

/** What is ever told of a secret: its name and times, never its value. */
export const SecretSchema = Type.Object({
  name: Type.String(),
  createdAt: EpochMs('When it was first set'),
  updatedAt: EpochMs('When it was last set'),
});

export const toSecret = (row: { name: string; created_at: Date; updated_at: Date }) => ({
  name: row.name,
  createdAt: row.created_at.getTime(),
  updatedAt: row.updated_at.getTime(),
});
