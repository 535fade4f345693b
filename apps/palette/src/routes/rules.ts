import {
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type ServiceRoutes,
} from '@platform/core';
import type { PaletteDatabase, RuleRow } from '../database.js';
import { unique } from '../domain/records.js';
import { toRule } from '../mappers.js';
import { resolveRefs } from '../repositories/records.js';
import {
  componentIdsOfRules,
  deleteRule,
  findRule,
  insertRule,
  listRules,
  ruleComponents,
} from '../repositories/rules.js';
import {
  RuleInputSchema,
  RuleListQuery,
  RuleSchema,
  RuleWithUsageSchema,
} from '../schemas/rules.js';

/** Accessibility rules, under /a11y. */
export const ruleRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db }) => {
  /** Rules with their component ids: one query for the links of all of them. */
  const withComponents = async (rows: RuleRow[]) => {
    const components = await componentIdsOfRules(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) => toRule(row, components.get(row.id) ?? []));
  };
  const shown = async (row: RuleRow) => (await withComponents([row]))[0];

  app.get(
    '/a11y',
    {
      schema: {
        operationId: 'listRules',
        summary: 'List accessibility rules by name',
        querystring: RuleListQuery,
        response: responses({ 200: Type.Array(RuleSchema) }),
      },
    },
    async (request) => {
      const { category, severity, tag, limit, offset } = request.query;
      const rows = await listRules(db, { category, severity, tag }, { limit, offset });
      return ok(await withComponents(rows));
    },
  );

  app.post(
    '/a11y',
    {
      schema: {
        operationId: 'createRule',
        summary: 'Create an accessibility rule',
        body: RuleInputSchema,
        response: responses({ 201: RuleSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const components = await resolveRefs(db, 'components', body.components ?? [], 'component');
      const row = await orConflict(
        insertRule(
          db,
          {
            name: body.name,
            category: body.category ?? null,
            severity: body.severity,
            wcag: body.wcag ?? null,
            level: body.level ?? null,
            description: body.description ?? null,
            tags: unique(body.tags ?? []),
          },
          components,
        ),
        nameTaken('Accessibility rule', body.name),
      );
      return reply.code(201).send(ok(toRule(row, components)));
    },
  );

  app.get(
    '/a11y/:idOrName',
    {
      schema: {
        operationId: 'getRule',
        summary: 'Get an accessibility rule with the components it applies to',
        params: IdOrNameParams,
        response: responses({ 200: RuleWithUsageSchema }),
      },
    },
    async (request) => {
      const row = await findRule(db, request.params.idOrName);
      const components = await ruleComponents(db, row.id);
      const ids = components.map((c) => c.id);
      return ok({ ...toRule(row, ids), usage: { components } });
    },
  );

  app.delete(
    '/a11y/:idOrName',
    {
      schema: {
        operationId: 'deleteRule',
        summary: 'Delete an accessibility rule',
        params: IdOrNameParams,
        response: responses({ 200: RuleSchema }),
      },
    },
    async (request) => {
      const rule = await shown(await findRule(db, request.params.idOrName));
      await deleteRule(db, rule.id);
      return ok(rule);
    },
  );
};
