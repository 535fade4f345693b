import {
  PageQuery,
  Type,
  badRequest,
  conflict,
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
  type ComponentRow,
  type PaletteDb,
  type TokenRow,
} from '../repository.js';
import {
  IdOrName,
  Name,
  Ref,
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
import { Token, toToken } from './tokens.js';

export const STATUSES = ['draft', 'experimental', 'beta', 'stable', 'deprecated'] as const;
export const SEVERITIES = ['minor', 'moderate', 'serious', 'critical'] as const;

const PropInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'prop name' }),
  type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      default: 'string',
      description: 'e.g. string, boolean, "sm" | "md"',
    }),
  ),
  required: Type.Optional(Type.Boolean({ default: false })),
  default: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  description: Type.Optional(Nullable(Text())),
});
const VariantInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'variant name' }),
  description: Type.Optional(Nullable(Text())),
});
const ExampleInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100, title: 'example name' }),
  code: Type.String({ minLength: 1, maxLength: 20000, title: 'code' }),
  description: Type.Optional(Nullable(Text())),
});

const ComponentInput = Type.Object({
  name: Name('component name'),
  status: Type.Optional(Type.Enum([...STATUSES], { default: 'draft' })),
  category: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  description: Type.Optional(Nullable(Text())),
  props: Type.Optional(Type.Array(PropInput, { maxItems: 200 })),
  variants: Type.Optional(Type.Array(VariantInput, { maxItems: 200 })),
  tokens: Type.Optional(
    Type.Array(Type.String(), { maxItems: 500, description: 'Token ids or names' }),
  ),
  tags: Type.Optional(Tags),
});
const ComponentUpdate = Type.Partial(ComponentInput);

const Prop = Type.Object({
  name: Type.String(),
  type: Type.String(),
  required: Type.Boolean(),
  default: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
const Variant = Type.Object({ name: Type.String(), description: Nullable(Type.String()) });
const Example = Type.Object({
  name: Type.String(),
  code: Type.String(),
  description: Nullable(Type.String()),
});

export const Component = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: Type.Enum([...STATUSES]),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  props: Type.Array(Prop),
  variants: Type.Array(Variant),
  examples: Type.Array(Example),
  tokens: Type.Array(Type.String(), { description: 'Ids of the tokens it uses' }),
  tags: Type.Array(Type.String()),
  ...Stamps,
});

const ComponentResolved = Type.Object({
  ...Component.properties,
  resolved: Type.Object({
    tokens: Type.Array(Token),
    patterns: Type.Array(Ref),
    rules: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        severity: Type.String(),
        wcag: Nullable(Type.String()),
        level: Nullable(Type.String()),
      }),
    ),
  }),
});

const toProp = (p: Static<typeof PropInput>) => ({
  name: p.name,
  type: p.type ?? 'string',
  required: p.required ?? false,
  default: p.default ?? null,
  description: p.description ?? null,
});
const toVariant = (v: Static<typeof VariantInput>) => ({
  name: v.name,
  description: v.description ?? null,
});

/** BAD_REQUEST when two items of a list share a name (case-insensitively). */
function distinctNames(list: Array<{ name: string }> | undefined, what: string) {
  const seen = new Set<string>();
  for (const { name } of list ?? []) {
    if (seen.has(name.toLowerCase())) throw badRequest(`Two ${what} are named ${name}`);
    seen.add(name.toLowerCase());
  }
}

export const componentRoutes: FastifyPluginAsyncTypebox<{ palette: PaletteDb }> = async (
  app,
  { palette },
) => {
  const toComponent = async (row: ComponentRow): Promise<Static<typeof Component>> => ({
    id: row.id,
    name: row.name,
    status: row.status as (typeof STATUSES)[number],
    category: row.category,
    description: row.description,
    props: row.props,
    variants: row.variants,
    examples: row.examples,
    tokens: await linkedIds(palette, 'component_tokens', row.id),
    tags: row.tags,
    ...stamps(row),
  });

  const resolved = async (row: ComponentRow) => {
    const tokens = (await palette
      .selectFrom('component_tokens as ct')
      .innerJoin('tokens as t', 't.id', 'ct.token_id')
      .selectAll('t')
      .where('ct.component_id', '=', row.id)
      .orderBy('ct.seq')
      .execute()) as TokenRow[];
    const patterns = await palette
      .selectFrom('pattern_components as pc')
      .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
      .select(['p.id', 'p.name'])
      .where('pc.component_id', '=', row.id)
      .orderBy(sql`lower(p.name)`)
      .execute();
    const rules = await palette
      .selectFrom('rule_components as rc')
      .innerJoin('rules as r', 'r.id', 'rc.rule_id')
      .select(['r.id', 'r.name', 'r.severity', 'r.wcag', 'r.level'])
      .where('rc.component_id', '=', row.id)
      .orderBy(sql`lower(r.name)`)
      .execute();
    return {
      ...(await toComponent(row)),
      resolved: { tokens: tokens.map(toToken), patterns, rules },
    };
  };

  /** Appends an item to a jsonb list unless one of that name is there: one statement, no race. */
  const append = async (
    idOrName: string,
    column: 'props' | 'variants' | 'examples',
    item: { name: string; [field: string]: unknown },
    what: string,
  ) => {
    const current = await find<ComponentRow>(palette, 'components', idOrName);
    const row = await palette
      .updateTable('components')
      .set({
        [column]: sql`${sql.ref(column)} || ${jsonb([item])}::jsonb`,
        updated: sql`now()`,
      } as never)
      .where('id', '=', current.id)
      .where(
        sql<boolean>`not exists (select 1 from jsonb_array_elements(${sql.ref(column)}) as e(item) where lower(e.item->>'name') = ${item.name.toLowerCase()})`,
      )
      .returningAll()
      .executeTakeFirst();
    if (!row) throw conflict(`Component ${current.name} has a ${what} named ${item.name} already`);
    return ok(await toComponent(row));
  };

  app.get(
    '/components',
    {
      schema: {
        tags,
        summary: 'List components by name',
        querystring: Type.Object({
          status: Type.Optional(Type.Enum([...STATUSES])),
          category: Type.Optional(Type.String()),
          tag: Type.Optional(Type.String()),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Component) }),
      },
    },
    async (request) => {
      const { status, category, tag, limit, offset } = request.query;
      const rows = await listNamed(
        palette,
        'components',
        { status, category, tag },
        { limit, offset },
      );
      return ok(await Promise.all(rows.map(toComponent)));
    },
  );

  app.post(
    '/components',
    {
      schema: {
        tags,
        summary: 'Create a component',
        body: ComponentInput,
        response: responses({ 201: Component }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      distinctNames(body.props, 'props');
      distinctNames(body.variants, 'variants');
      const tokenIds = await resolveAll(palette, 'tokens', body.tokens ?? []);
      const id = newId();
      const row = await palette.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('components')
          .values({
            id,
            name: body.name,
            status: body.status ?? 'draft',
            category: body.category ?? null,
            description: body.description ?? null,
            props: jsonb((body.props ?? []).map(toProp)),
            variants: jsonb((body.variants ?? []).map(toVariant)),
            examples: jsonb([]),
            tags: jsonb(unique(body.tags ?? [])),
          })
          .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!inserted) throw nameTaken('components', body.name);
        await setLinks(trx, 'component_tokens', ['component_id', 'token_id'], id, tokenIds);
        return inserted;
      });
      return reply.code(201).send(ok(await toComponent(row)));
    },
  );

  app.get(
    '/components/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a component with its relations resolved',
        description:
          'resolved: the token records, the patterns that use it, the accessibility rules that apply to it.',
        params: IdOrName,
        response: responses({ 200: ComponentResolved }),
      },
    },
    async (request) =>
      ok(await resolved(await find<ComponentRow>(palette, 'components', request.params.idOrName))),
  );

  app.put(
    '/components/:idOrName',
    {
      schema: {
        tags,
        summary: 'Update a component',
        description:
          'Changes the fields sent; props, variants and tokens, when sent, replace the lists.',
        params: IdOrName,
        body: ComponentUpdate,
        response: responses({ 200: Component }),
      },
    },
    async (request) => {
      const current = await find<ComponentRow>(palette, 'components', request.params.idOrName);
      const body = request.body;
      distinctNames(body.props, 'props');
      distinctNames(body.variants, 'variants');
      const tokenIds =
        body.tokens === undefined ? undefined : await resolveAll(palette, 'tokens', body.tokens);
      const row = await updateRecord<ComponentRow>(
        palette,
        'components',
        current.id,
        sentFields({
          name: body.name,
          status: body.status,
          category: body.category,
          description: body.description,
          props: body.props && jsonb(body.props.map(toProp)),
          variants: body.variants && jsonb(body.variants.map(toVariant)),
          tags: body.tags && jsonb(unique(body.tags)),
        }),
        tokenIds && {
          link: 'component_tokens',
          columns: ['component_id', 'token_id'],
          targets: tokenIds,
        },
      );
      return ok(await toComponent(row));
    },
  );

  app.delete(
    '/components/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete a component',
        description:
          'Answers with the deleted component; it leaves the patterns and rules that named it.',
        params: IdOrName,
        response: responses({ 200: Component }),
      },
    },
    async (request) => {
      const row = await find<ComponentRow>(palette, 'components', request.params.idOrName);
      const shown = await toComponent(row);
      await palette.deleteFrom('components').where('id', '=', row.id).execute();
      return ok(shown);
    },
  );

  const added = (summary: string) => ({
    tags,
    summary,
    params: IdOrName,
    response: responses({ 200: Component }),
  });

  app.post(
    '/components/:idOrName/props',
    { schema: { ...added('Add a prop (409 if one has that name)'), body: PropInput } },
    async (request) => append(request.params.idOrName, 'props', toProp(request.body), 'prop'),
  );
  app.post(
    '/components/:idOrName/variants',
    { schema: { ...added('Add a variant (409 if one has that name)'), body: VariantInput } },
    async (request) =>
      append(request.params.idOrName, 'variants', toVariant(request.body), 'variant'),
  );
  app.post(
    '/components/:idOrName/examples',
    { schema: { ...added('Add an example (409 if one has that name)'), body: ExampleInput } },
    async (request) => {
      const { name, code, description } = request.body;
      return append(
        request.params.idOrName,
        'examples',
        { name, code, description: description ?? null },
        'example',
      );
    },
  );
};
