import type { ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { toRecord } from '../mappers.js';
import { namedRecordRoutes } from '../named-records.js';
import { NamedListQuery } from '../schemas/common.js';
import { StandardInputSchema, StandardSchema } from '../schemas/standards.js';

export const standardRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  namedRecordRoutes(
    app,
    { db, access },
    {
      table: 'standards',
      path: '/standards',
      resource: 'Standard',
      schemas: { Input: StandardInputSchema, Record: StandardSchema, ListQuery: NamedListQuery },
      toApi: toRecord,
      columns: (body) => ({ guidelines: body.guidelines }),
      defaults: { guidelines: [] },
    },
  );
};
