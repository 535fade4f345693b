import { Type } from '@platform/core';

export const StatusSchema = Type.Object({
  initialized: Type.Boolean(),
  config: Type.Object({ version: Type.Integer(), currency: Type.String() }),
  totalItems: Type.Integer(),
  totalCategories: Type.Integer(),
  totalSyncJobs: Type.Integer(),
  totalAmount: Type.Integer({ description: 'Cents, of the items in the configured currency' }),
  currency: Type.String(),
  storageType: Type.Enum(['pglite', 'postgres']),
});
