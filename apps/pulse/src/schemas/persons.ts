import { IsoTimestamp, Type, type Static } from '@platform/core';
import type { PersonRow } from '../database.js';

export const PersonSchema = Type.Object({
  id: Type.String(),
  distinctIds: Type.Array(Type.String(), {
    description: 'Every id that names the person (merged ones included), sorted',
  }),
  properties: Type.Record(Type.String(), Type.Unknown(), {
    description: 'As `$set`, `$set_once` and identify traits left them',
  }),
  identified: Type.Boolean({
    description: 'Identified by `$identify` or an identify with a userId',
  }),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Person = Static<typeof PersonSchema>;

export const toPerson = (row: PersonRow, distinctIds: string[]): Person => ({
  id: row.id,
  distinctIds,
  properties: row.properties,
  identified: row.identified,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

export const PersonParams = Type.Object({
  distinctId: Type.String({ description: 'Any distinct id of the person' }),
});
