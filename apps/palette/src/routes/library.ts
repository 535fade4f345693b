import {
  PageQuery,
  Type,
  newId,
  ok,
  responses,
  type FastifyPluginAsyncTypebox,
  type Static,
  Nullable,
} from '@platform/core';
import { sql } from '@platform/db';
import {
  jsonb,
  linkedIds,
  listNamed,
  setLinks,
  type PaletteDb,
  type PatternRow,
  type RuleRow,
  type StandardRow,
} from '../repository.js';
import { SEVERITIES, STATUSES } from './components.js';
import {
  IdOrName,
  Name,
  Stamps,
  Tags,
  Text,
  find,
  nameTaken,
  resolveAll,
  sentFields,
  stamps,
  tags,
  unique,
  updateRecord,
} from './common.js';

export const LEVELS = ['A', 'AA', 'AAA'] as const;
const Category = Nullable(Type.String({ minLength: 1, maxLength: 100 }));
const ComponentRef = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Enum([...STATUSES]),
});

/** The components linked to a record, by name. */
const componentsOf = (db: PaletteDb, link: 'pattern_components' | 'rule_components', id: string) =>
  db
    .selectFrom(`${link} as l` as 'rule_components as l')
    .innerJoin('components as c', 'c.id', 'l.component_id')
    .select(['c.id', 'c.name', 'c.status'])
    .where(sql.ref(link === 'pattern_components' ? 'l.pattern_id' : 'l.rule_id'), '=', id)
    .orderBy('l.seq')
    .execute() as Promise<Array<{ id: string; name: string; status: (typeof STATUSES)[number] }>>;

// Patterns

const StepInput = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200, title: 'step title' }),
  description: Type.Optional(Nullable(Text())),
  component: Type.Optional(
    Nullable(Type.String({ description: 'A component (id or name) the step uses' })),
  ),
});
const PatternInput = Type.Object({
  name: Name('pattern name'),
  category: Type.Optional(Category),
  description: Type.Optional(Nullable(Text())),
  components: Type.Optional(
    Type.Array(Type.String(), { maxItems: 200, description: 'Component ids or names' }),
  ),
  tags: Type.Optional(Tags),
});
const Step = Type.Object({
  title: Type.String(),
  description: Nullable(Type.String()),
  component: Nullable(Type.String()),
});
const Pattern = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  components: Type.Array(Type.String(), { description: 'Ids of its components' }),
  steps: Type.Array(Step, { description: 'In order' }),
  tags: Type.Array(Type.String()),
  ...Stamps,
});
const PatternResolved = Type.Object({
  ...Pattern.properties,
  resolved: Type.Object({
    components: Type.Array(ComponentRef, { description: 'Its components and those its steps use' }),
  }),
});

// Standards

const StandardInput = Type.Object({
  name: Name('standard name'),
  category: Type.Optional(Category),
  description: Type.Optional(Nullable(Text())),
  guidelines: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 200 }),
  ),
  tags: Type.Optional(Tags),
});
const Standard = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  guidelines: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  ...Stamps,
});
const toStandard = (row: StandardRow): Static<typeof Standard> => ({
  id: row.id,
  name: row.name,
  category: row.category,
  description: row.description,
  guidelines: row.guidelines,
  tags: row.tags,
  ...stamps(row),
});

// Accessibility rules

const RuleInput = Type.Object({
  name: Name('rule name'),
  category: Type.Optional(Category),
  severity: Type.Enum([...SEVERITIES], { title: 'severity' }),
  wcag: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^[1-4]\\.[0-9]{1,2}\\.[0-9]{1,2}$',
        description: 'WCAG success criterion, e.g. 1.4.3',
      }),
    ),
  ),
  level: Type.Optional(Nullable(Type.Enum([...LEVELS]))),
  description: Type.Optional(Nullable(Text())),
  components: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: 500,
      description: 'Component ids or names it applies to',
    }),
  ),
  tags: Type.Optional(Tags),
});
const Rule = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Nullable(Type.String()),
  severity: Type.Enum([...SEVERITIES]),
  wcag: Nullable(Type.String()),
  level: Nullable(Type.Enum([...LEVELS])),
  description: Nullable(Type.String()),
  components: Type.Array(Type.String(), { description: 'Ids of the components it applies to' }),
  tags: Type.Array(Type.String()),
  ...Stamps,
});
const RuleWithUsage = Type.Object({
  ...Rule.properties,
  usage: Type.Object({ components: Type.Array(ComponentRef) }),
});

const ListQuery = Type.Object({
  category: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
  ...PageQuery,
});

export const libraryRoutes: FastifyPluginAsyncTypebox<{ palette: PaletteDb }> = async (
  app,
  { palette },
) => {
  const toPattern = async (row: PatternRow): Promise<Static<typeof Pattern>> => ({
    id: row.id,
    name: row.name,
    category: row.category,
    description: row.description,
    components: await linkedIds(palette, 'pattern_components', row.id),
    steps: row.steps,
    tags: row.tags,
    ...stamps(row),
  });
  const toRule = async (row: RuleRow): Promise<Static<typeof Rule>> => ({
    id: row.id,
    name: row.name,
    category: row.category,
    severity: row.severity as (typeof SEVERITIES)[number],
    wcag: row.wcag,
    level: row.level as (typeof LEVELS)[number] | null,
    description: row.description,
    components: await linkedIds(palette, 'rule_components', row.id),
    tags: row.tags,
    ...stamps(row),
  });
  const resolvedPattern = async (row: PatternRow) => {
    const linked = await componentsOf(palette, 'pattern_components', row.id);
    const stepIds = row.steps.flatMap((s) => (s.component ? [s.component] : []));
    const fromSteps = stepIds.length
      ? await palette
          .selectFrom('components')
          .select(['id', 'name', 'status'])
          .where('id', 'in', stepIds)
          .execute()
      : [];
    const components = [...linked, ...fromSteps.filter((c) => !linked.some((l) => l.id === c.id))];
    return { ...(await toPattern(row)), resolved: { components: components as typeof linked } };
  };
  /** Inserts a named record; 409 when the name is taken. */
  const insertNamed = async <Row>(
    db: PaletteDb,
    table: 'patterns' | 'standards' | 'rules',
    values: Record<string, unknown>,
  ) => {
    const row = await db
      .insertInto(table as 'rules')
      .values({ id: newId(), ...values } as never)
      .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw nameTaken(table, String(values.name));
    return row as unknown as Row;
  };

  // Patterns

  app.get(
    '/patterns',
    {
      schema: {
        tags,
        summary: 'List patterns by name',
        querystring: ListQuery,
        response: responses({ 200: Type.Array(Pattern) }),
      },
    },
    async (request) => {
      const { category, tag, limit, offset } = request.query;
      return ok(
        await Promise.all(
          (await listNamed(palette, 'patterns', { category, tag }, { limit, offset })).map(
            toPattern,
          ),
        ),
      );
    },
  );

  app.post(
    '/patterns',
    {
      schema: {
        tags,
        summary: 'Create a pattern',
        body: PatternInput,
        response: responses({ 201: Pattern }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const components = await resolveAll(palette, 'components', body.components ?? []);
      const row = await palette.transaction().execute(async (trx) => {
        const created = await insertNamed<PatternRow>(trx, 'patterns', {
          name: body.name,
          category: body.category ?? null,
          description: body.description ?? null,
          tags: jsonb(unique(body.tags ?? [])),
        });
        await setLinks(
          trx,
          'pattern_components',
          ['pattern_id', 'component_id'],
          created.id,
          components,
        );
        return created;
      });
      return reply.code(201).send(ok(await toPattern(row)));
    },
  );

  app.get(
    '/patterns/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a pattern with its components resolved',
        params: IdOrName,
        response: responses({ 200: PatternResolved }),
      },
    },
    async (request) =>
      ok(
        await resolvedPattern(await find<PatternRow>(palette, 'patterns', request.params.idOrName)),
      ),
  );

  app.put(
    '/patterns/:idOrName',
    {
      schema: {
        tags,
        summary: 'Update a pattern',
        description:
          'Changes the fields sent; components, when sent, replaces the list (steps are added through /steps).',
        params: IdOrName,
        body: Type.Partial(PatternInput),
        response: responses({ 200: Pattern }),
      },
    },
    async (request) => {
      const current = await find<PatternRow>(palette, 'patterns', request.params.idOrName);
      const body = request.body;
      const components =
        body.components === undefined
          ? undefined
          : await resolveAll(palette, 'components', body.components);
      const row = await updateRecord<PatternRow>(
        palette,
        'patterns',
        current.id,
        sentFields({
          name: body.name,
          category: body.category,
          description: body.description,
          tags: body.tags && jsonb(unique(body.tags)),
        }),
        components && {
          link: 'pattern_components',
          columns: ['pattern_id', 'component_id'],
          targets: components,
        },
      );
      return ok(await toPattern(row));
    },
  );

  app.delete(
    '/patterns/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete a pattern',
        params: IdOrName,
        response: responses({ 200: Pattern }),
      },
    },
    async (request) => {
      const row = await find<PatternRow>(palette, 'patterns', request.params.idOrName);
      const shown = await toPattern(row);
      await palette.deleteFrom('patterns').where('id', '=', row.id).execute();
      return ok(shown);
    },
  );

  app.post(
    '/patterns/:idOrName/steps',
    {
      schema: {
        tags,
        summary: 'Append a step',
        description: 'Steps keep the order they were added in. Answers with the pattern.',
        params: IdOrName,
        body: StepInput,
        response: responses({ 201: Pattern }),
      },
    },
    async (request, reply) => {
      const current = await find<PatternRow>(palette, 'patterns', request.params.idOrName);
      const { title, description, component } = request.body;
      const [componentId] = component
        ? await resolveAll(palette, 'components', [component])
        : [null];
      const step = { title, description: description ?? null, component: componentId };
      const row = await palette
        .updateTable('patterns')
        .set({ steps: sql`steps || ${jsonb([step])}::jsonb`, updated: sql`now()` } as never)
        .where('id', '=', current.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return reply.code(201).send(ok(await toPattern(row as PatternRow)));
    },
  );

  // Standards

  app.get(
    '/standards',
    {
      schema: {
        tags,
        summary: 'List standards by name',
        querystring: ListQuery,
        response: responses({ 200: Type.Array(Standard) }),
      },
    },
    async (request) => {
      const { category, tag, limit, offset } = request.query;
      return ok(
        (await listNamed(palette, 'standards', { category, tag }, { limit, offset })).map(
          toStandard,
        ),
      );
    },
  );

  app.post(
    '/standards',
    {
      schema: {
        tags,
        summary: 'Create a standard',
        body: StandardInput,
        response: responses({ 201: Standard }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const row = await insertNamed<StandardRow>(palette, 'standards', {
        name: body.name,
        category: body.category ?? null,
        description: body.description ?? null,
        guidelines: jsonb(body.guidelines ?? []),
        tags: jsonb(unique(body.tags ?? [])),
      });
      return reply.code(201).send(ok(toStandard(row)));
    },
  );

  app.get(
    '/standards/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a standard',
        params: IdOrName,
        response: responses({ 200: Standard }),
      },
    },
    async (request) =>
      ok(toStandard(await find<StandardRow>(palette, 'standards', request.params.idOrName))),
  );

  app.delete(
    '/standards/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete a standard',
        params: IdOrName,
        response: responses({ 200: Standard }),
      },
    },
    async (request) => {
      const row = await find<StandardRow>(palette, 'standards', request.params.idOrName);
      await palette.deleteFrom('standards').where('id', '=', row.id).execute();
      return ok(toStandard(row));
    },
  );

  // Accessibility rules

  app.get(
    '/a11y',
    {
      schema: {
        tags,
        summary: 'List accessibility rules by name',
        querystring: Type.Object({
          ...ListQuery.properties,
          severity: Type.Optional(Type.Enum([...SEVERITIES])),
        }),
        response: responses({ 200: Type.Array(Rule) }),
      },
    },
    async (request) => {
      const { category, severity, tag, limit, offset } = request.query;
      return ok(
        await Promise.all(
          (await listNamed(palette, 'rules', { category, severity, tag }, { limit, offset })).map(
            toRule,
          ),
        ),
      );
    },
  );

  app.post(
    '/a11y',
    {
      schema: {
        tags,
        summary: 'Create an accessibility rule',
        body: RuleInput,
        response: responses({ 201: Rule }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const components = await resolveAll(palette, 'components', body.components ?? []);
      const row = await palette.transaction().execute(async (trx) => {
        const created = await insertNamed<RuleRow>(trx, 'rules', {
          name: body.name,
          category: body.category ?? null,
          severity: body.severity,
          wcag: body.wcag ?? null,
          level: body.level ?? null,
          description: body.description ?? null,
          tags: jsonb(unique(body.tags ?? [])),
        });
        await setLinks(trx, 'rule_components', ['rule_id', 'component_id'], created.id, components);
        return created;
      });
      return reply.code(201).send(ok(await toRule(row)));
    },
  );

  app.get(
    '/a11y/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get an accessibility rule with the components it applies to',
        params: IdOrName,
        response: responses({ 200: RuleWithUsage }),
      },
    },
    async (request) => {
      const row = await find<RuleRow>(palette, 'rules', request.params.idOrName);
      return ok({
        ...(await toRule(row)),
        usage: { components: await componentsOf(palette, 'rule_components', row.id) },
      });
    },
  );

  app.delete(
    '/a11y/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete an accessibility rule',
        params: IdOrName,
        response: responses({ 200: Rule }),
      },
    },
    async (request) => {
      const row = await find<RuleRow>(palette, 'rules', request.params.idOrName);
      const shown = await toRule(row);
      await palette.deleteFrom('rules').where('id', '=', row.id).execute();
      return ok(shown);
    },
  );
};
