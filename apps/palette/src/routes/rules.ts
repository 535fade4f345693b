import {
  IdOrNameParams,
  nameTaken,
  ok,
  orConflict,
  responses,
  Type,
  type Access,
  type ServiceRoutes,
  ownershipColumns,
} from '@platform/core';
import type { PaletteDatabase, RuleRow } from '../database.js';
import { findOwnership, resolveRefs } from '../repositories/records.js';
import { newNamedColumns } from '../schemas/common.js';
import {
  deleteRule,
  findRule,
  insertRule,
  listRules,
  ruleComponents,
  withComponents,
} from '../repositories/rules.js';
import {
  RuleInputSchema,
  RuleListQuery,
  RuleSchema,
  RuleWithUsageSchema,
  toRule,
} from '../schemas/rules.js';

/** Accessibility rules, under /a11y. */
export const ruleRoutes: ServiceRoutes<PaletteDatabase> = async (app, { db, access }) => {
  // Shared knowledge: any signed-in caller reads; members create rules; their creator, their team
  // and admins delete them.
  const owner: Access['owner'] = (request) =>
    findOwnership(db, 'rules', (request.params as { idOrName?: unknown }).idOrName);
  const READ: Access = { resource: 'palette.rule', action: 'read' };
  const CREATE: Access = { resource: 'palette.rule', action: 'create' };
  const DELETE: Access = { resource: 'palette.rule', action: 'delete', rule: 'owner', owner };

  const shown = async (row: RuleRow) => toRule((await withComponents(db, [row]))[0]);

  app.get(
    '/a11y',
    {
      config: { access: READ },
      schema: {
        operationId: 'listRules',
        summary: 'List accessibility rules by name',
        querystring: RuleListQuery,
        response: responses({ 200: Type.Array(RuleSchema) }),
      },
    },
    async (request) => ok((await listRules(db, request.query)).map(toRule)),
  );

  app.post(
    '/a11y',
    {
      config: { access: CREATE },
      schema: {
        operationId: 'createRule',
        summary: 'Create an accessibility rule',
        body: RuleInputSchema,
        response: responses({ 201: RuleSchema }),
      },
    },
    async (request, reply) => {
      const { name, severity, components = [] } = request.body;
      const owned = await ownershipColumns(request.identity, request.body.team, access);
      const componentIds = await resolveRefs(db, 'components', components);
      const rule = {
        ...owned,
        ...newNamedColumns(request.body),
        severity,
        wcag: request.body.wcag ?? null,
        level: request.body.level ?? null,
      };
      const insert = () => insertRule(db, rule, componentIds);
      const row = await orConflict(insert, nameTaken('Accessibility rule', name));
      return reply.code(201).send(ok(toRule({ ...row, components: componentIds })));
    },
  );

  app.get(
    '/a11y/:idOrName',
    {
      config: { access: READ },
      schema: {
        operationId: 'getRule',
        summary: 'Get an accessibility rule with the components it applies to',
        params: IdOrNameParams,
        response: responses({ 200: RuleWithUsageSchema }),
      },
    },
    async (request) => {
      const row = await findRule(db, request.params.idOrName);
      const rule = await shown(row);
      return ok({ ...rule, usage: { components: await ruleComponents(db, row.id) } });
    },
  );

  app.delete(
    '/a11y/:idOrName',
    {
      config: { access: DELETE },
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
