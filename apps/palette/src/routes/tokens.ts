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
import { isUniqueViolation, sql } from '@platform/db';
import { FORMATS, exportTokens } from '../exports.js';
import { jsonb, listNamed, type PaletteDb, type TokenRow } from '../repository.js';
import {
  CATEGORY_NAMES,
  contrast,
  deriveCssVariable,
  deriveTailwindKey,
  isCssColor,
  type Category,
} from '../tokens.js';
import {
  IdOrName,
  Ref,
  Stamps,
  Tags,
  Text,
  find,
  nameTaken,
  stamps,
  tags,
  unique,
} from './common.js';

const Value = Type.String({ minLength: 1, maxLength: 500 });
const CssVariable = Type.String({
  pattern: '^--[A-Za-z0-9_-]+$',
  maxLength: 120,
  description: 'Custom property name, e.g. --color-primary; derived from the name when absent',
});
const TailwindKey = Type.String({
  pattern: '^[A-Za-z0-9_-]+$',
  maxLength: 100,
  description: 'Key in the Tailwind theme section; derived from the name when absent',
});
const Group = Type.String({
  pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
  maxLength: 200,
  description: 'Dotted group path, e.g. brand.primary (the JSON export nests by it)',
});
const TokenName = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
  title: 'token name',
  description: 'Letters, digits, - and _; unique case-insensitively',
});

const TokenInput = Type.Object({
  name: TokenName,
  category: Type.Enum(CATEGORY_NAMES, { title: 'category' }),
  value: Type.Union(
    [Value, Type.Object({ default: Value, dark: Type.Optional(Nullable(Value)) })],
    {
      title: 'value',
      description: 'The default (light) value, or { default, dark }',
    },
  ),
  dark: Type.Optional(Nullable(Value)),
  cssVariable: Type.Optional(CssVariable),
  tailwindKey: Type.Optional(TailwindKey),
  group: Type.Optional(Nullable(Group)),
  description: Type.Optional(Nullable(Text())),
  tags: Type.Optional(Tags),
});

const TokenUpdate = Type.Partial(TokenInput);

export const Token = Type.Object({
  id: Type.String(),
  name: Type.String(),
  category: Type.Enum(CATEGORY_NAMES),
  value: Type.Object({ default: Type.String(), dark: Nullable(Type.String()) }),
  cssVariable: Type.String(),
  tailwindKey: Type.String(),
  group: Nullable(Type.String()),
  description: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  ...Stamps,
});

const TokenWithUsage = Type.Object({
  ...Token.properties,
  usage: Type.Object({
    components: Type.Array(Ref, { description: 'Components that use the token' }),
    patterns: Type.Array(Ref, { description: 'Patterns with such a component' }),
  }),
});

export const toToken = (row: TokenRow): Static<typeof Token> => ({
  id: row.id,
  name: row.name,
  category: row.category as Category,
  value: { default: row.value_default, dark: row.value_dark },
  cssVariable: row.css_variable,
  tailwindKey: row.tailwind_key,
  group: row.group,
  description: row.description,
  tags: row.tags,
  ...stamps(row),
});

type Input = Static<typeof TokenUpdate>;

/** The columns a create or an update sets, checked: colors must parse as CSS colors. */
function columns(input: Input, current?: TokenRow) {
  const category = (input.category ?? current?.category) as Category;
  const name = input.name ?? current?.name ?? '';
  const value =
    input.value === undefined
      ? undefined
      : typeof input.value === 'string'
        ? { default: input.value }
        : input.value;
  const dark = input.dark !== undefined ? input.dark : value?.dark;
  const out = {
    ...(input.name === undefined ? {} : { name }),
    ...(input.category === undefined ? {} : { category }),
    ...(value === undefined ? {} : { value_default: value.default }),
    ...(dark === undefined ? {} : { value_dark: dark }),
    ...(input.group === undefined ? {} : { group: input.group }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.tags === undefined ? {} : { tags: jsonb(unique(input.tags)) }),
    // Derived from the name unless given; a rename re-derives only what was derived.
    ...(input.cssVariable !== undefined
      ? { css_variable: input.cssVariable }
      : !current ||
          (input.name !== undefined && current.css_variable === deriveCssVariable(current.name))
        ? { css_variable: deriveCssVariable(name) }
        : {}),
    ...(input.tailwindKey !== undefined
      ? { tailwind_key: input.tailwindKey }
      : !current ||
          ((input.name !== undefined || input.category !== undefined) &&
            current.tailwind_key === deriveTailwindKey(current.name, current.category as Category))
        ? { tailwind_key: deriveTailwindKey(name, category) }
        : {}),
  };
  if (category === 'color') {
    for (const [field, v] of [
      ['value', out.value_default ?? current?.value_default],
      ['dark', out.value_dark === undefined ? current?.value_dark : out.value_dark],
    ] as const)
      if (v !== undefined && v !== null && !isCssColor(v))
        throw badRequest(`${field} is not a CSS color: ${v}`);
  }
  return out;
}

/** Turns a unique violation into a 409 saying which value is taken: the name first. */
async function conflictOf(db: PaletteDb, error: unknown, name: string | undefined, id?: string) {
  if (!isUniqueViolation(error)) return error;
  if (name !== undefined) {
    const other = await db
      .selectFrom('tokens')
      .select('id')
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .where('id', '!=', id ?? '')
      .executeTakeFirst();
    if (other) return nameTaken('tokens', name);
  }
  const constraint = (error as { constraint?: string }).constraint ?? '';
  if (constraint.includes('tailwind_key'))
    return conflict('Another token of that category has that tailwindKey');
  return conflict('Another token has that cssVariable');
}

export const tokenRoutes: FastifyPluginAsyncTypebox<{ palette: PaletteDb }> = async (
  app,
  { palette },
) => {
  const usage = async (id: string) => {
    const components = await palette
      .selectFrom('component_tokens as ct')
      .innerJoin('components as c', 'c.id', 'ct.component_id')
      .select(['c.id', 'c.name'])
      .where('ct.token_id', '=', id)
      .orderBy(sql`lower(c.name)`)
      .execute();
    const patterns = await palette
      .selectFrom('pattern_components as pc')
      .innerJoin('patterns as p', 'p.id', 'pc.pattern_id')
      .innerJoin('component_tokens as ct', 'ct.component_id', 'pc.component_id')
      .select(['p.id', 'p.name'])
      .where('ct.token_id', '=', id)
      .distinct()
      .orderBy('p.name')
      .execute();
    return { components, patterns };
  };

  app.get(
    '/tokens',
    {
      schema: {
        tags,
        summary: 'List tokens by name',
        querystring: Type.Object({
          category: Type.Optional(Type.Enum(CATEGORY_NAMES)),
          group: Type.Optional(Type.String()),
          tag: Type.Optional(Type.String()),
          ...PageQuery,
        }),
        response: responses({ 200: Type.Array(Token) }),
      },
    },
    async (request) => {
      const { category, group, tag, limit, offset } = request.query;
      return ok(
        (await listNamed(palette, 'tokens', { category, group, tag }, { limit, offset })).map(
          toToken,
        ),
      );
    },
  );

  app.post(
    '/tokens',
    {
      schema: {
        tags,
        summary: 'Create a token',
        body: TokenInput,
        response: responses({ 201: Token }),
      },
    },
    async (request, reply) => {
      const values = columns(request.body);
      try {
        const row = await palette
          .insertInto('tokens')
          .values({ id: newId(), ...(values as Required<typeof values>) })
          .returningAll()
          .executeTakeFirstOrThrow();
        return reply.code(201).send(ok(toToken(row)));
      } catch (error) {
        throw await conflictOf(palette, error, request.body.name);
      }
    },
  );

  app.get(
    '/tokens/contrast',
    {
      schema: {
        tags,
        summary: 'WCAG contrast of two color tokens, in both modes',
        description:
          'AA needs 4.5 (normal text) or 3 (large text); AAA 7 or 4.5. Dark mode uses each token’s dark value, or its default.',
        querystring: Type.Object({
          foreground: Type.String({ title: 'foreground', description: 'Color token (id or name)' }),
          background: Type.String({ title: 'background', description: 'Color token (id or name)' }),
        }),
        response: responses({
          200: Type.Object({
            foreground: Ref,
            background: Ref,
            light: ContrastSchema(),
            dark: ContrastSchema(),
          }),
        }),
      },
    },
    async (request) => {
      const fg = await find<TokenRow>(palette, 'tokens', request.query.foreground);
      const bg = await find<TokenRow>(palette, 'tokens', request.query.background);
      for (const t of [fg, bg])
        if (t.category !== 'color')
          throw badRequest(`Token ${t.name} is not a color (${t.category})`);
      return ok({
        foreground: { id: fg.id, name: fg.name },
        background: { id: bg.id, name: bg.name },
        light: contrast(fg.value_default, bg.value_default),
        dark: contrast(fg.value_dark ?? fg.value_default, bg.value_dark ?? bg.value_default),
      });
    },
  );

  app.get(
    '/tokens/:idOrName',
    {
      schema: {
        tags,
        summary: 'Get a token with its usage',
        params: IdOrName,
        response: responses({ 200: TokenWithUsage }),
      },
    },
    async (request) => {
      const row = await find<TokenRow>(palette, 'tokens', request.params.idOrName);
      return ok({ ...toToken(row), usage: await usage(row.id) });
    },
  );

  app.put(
    '/tokens/:idOrName',
    {
      schema: {
        tags,
        summary: 'Update a token',
        description:
          'Changes the fields sent. A rename re-derives cssVariable and tailwindKey unless they were set by hand.',
        params: IdOrName,
        body: TokenUpdate,
        response: responses({ 200: Token }),
      },
    },
    async (request) => {
      const current = await find<TokenRow>(palette, 'tokens', request.params.idOrName);
      const values = columns(request.body, current);
      try {
        const row = await palette
          .updateTable('tokens')
          .set({ ...values, updated: sql`now()` })
          .where('id', '=', current.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok(toToken(row));
      } catch (error) {
        throw await conflictOf(palette, error, request.body.name, current.id);
      }
    },
  );

  app.delete(
    '/tokens/:idOrName',
    {
      schema: {
        tags,
        summary: 'Delete a token',
        description: 'Answers with the deleted token; 409 while components use it, naming them.',
        params: IdOrName,
        response: responses({ 200: Token }),
      },
    },
    async (request) => {
      const row = await find<TokenRow>(palette, 'tokens', request.params.idOrName);
      const { components } = await usage(row.id);
      if (components.length > 0)
        throw conflict(
          `Token ${row.name} is used by components: ${components.map((c) => c.name).join(', ')}`,
        );
      await palette.deleteFrom('tokens').where('id', '=', row.id).execute();
      return ok(toToken(row));
    },
  );

  app.get(
    '/export',
    {
      schema: {
        tags,
        summary: 'Export every token',
        description:
          'css: custom properties (:root, dark under [data-theme="dark"] and prefers-color-scheme); json: W3C design tokens (DTCG); tailwind: a Tailwind 3 preset (CommonJS module); tailwind4: an @theme block.',
        querystring: Type.Object({ format: Type.Enum([...FORMATS], { title: 'format' }) }),
        response: responses({
          200: Type.Object({ format: Type.Enum([...FORMATS]), output: Type.String() }),
        }),
      },
    },
    async (request) => {
      const rows = await palette
        .selectFrom('tokens')
        .selectAll()
        .orderBy(sql`lower(name)`)
        .execute();
      const { format } = request.query;
      return ok({ format, output: exportTokens(rows.map(toToken), format) });
    },
  );
};

function ContrastSchema() {
  const Pass = Type.Object({ normal: Type.Boolean(), large: Type.Boolean() });
  return Type.Object({ ratio: Type.Number(), aa: Pass, aaa: Pass });
}
