import type { ServiceRoutes } from '@platform/core';
import type { PaletteDatabase } from '../database.js';
import { toRecord } from '../mappers.js';
import { namedRecordRoutes } from '../named-records.js';
import { componentsLinkedBy } from '../repositories/components.js';
import {
  RuleInputSchema,
  RuleListQuery,
  RuleSchema,
  RuleWithUsageSchema,
  type Level,
  type Severity,
} from '../schemas/rules.js';

/** Accessibility rules, under /a11y. */
export const ruleRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  namedRecordRoutes(
    app,
    { db, access },
    {
      table: 'rules',
      path: '/a11y',
      resource: 'Accessibility rule',
      operation: 'Rule',
      schemas: { Input: RuleInputSchema, Record: RuleSchema, ListQuery: RuleListQuery },
      toApi: (row, components) => ({
        ...toRecord(row),
        severity: row.severity as Severity,
        level: row.level as Level | null,
        components,
      }),
      columns: ({ severity, wcag, level }) => ({ severity, wcag, level }),
      defaults: { wcag: null, level: null },
      get: {
        summary: 'with the components it applies to',
        schema: RuleWithUsageSchema,
        extra: async (row) => ({
          usage: { components: await componentsLinkedBy(db, 'rules', row.id) },
        }),
      },
    },
  );
};
