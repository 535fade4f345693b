import { jsonb } from '@platform/db';
import { jsonApi, serviceUnderTest, useService, type JsonApi } from '@platform/testing';
import type { PaletteDb } from '../src/database';
import { palette } from '../src/index';
import { insertComponent } from '../src/repositories/components';
import { insertToken } from '../src/repositories/tokens';

const svc = useService(() => serviceUnderTest(palette));
let api: JsonApi;
let db: PaletteDb;
beforeEach(async () => {
  api = jsonApi(svc.app, palette.prefix);
  db = svc.db.schema('palette');
});

/** `count` records named `<kind>-0000`...: the name is also the id, so that links are easy to make. */
const many = (kind: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${kind}-${String(i).padStart(4, '0')}`);

/** Queries made by a GET of `path`, checking that it answers `length` records. */
async function queriesOf(path: string, length: number) {
  svc.queries.reset();
  const { status, body } = await api.get(path);
  expect(status).toBe(200);
  expect(body.data).toHaveLength(length);
  return { count: svc.queries.count(), data: body.data };
}

/** Two components, each with two tokens: what the records below link to. */
async function twoComponents() {
  const tokens = [];
  for (const name of ['ink', 'paper']) {
    const values = { name, category: 'spacing' as const, value_default: '1px', tags: [] };
    tokens.push(
      await insertToken(db, {
        ...values,
        css_variable: `--${name}`,
        tailwind_key: name,
      }),
    );
  }
  const ids = [];
  for (const name of ['Button', 'Input']) {
    const values = {
      name,
      status: 'stable' as const,
      props: [],
      variants: [],
      examples: [],
      tags: [],
    };
    ids.push(
      (
        await insertComponent(
          db,
          values,
          tokens.map((t) => t.id),
        )
      ).id,
    );
  }
  return ids;
}

describe('a list costs the same number of queries for 1 record as for 1,000', () => {
  it('patterns, each with its components', async () => {
    const components = await twoComponents();
    // In two statements: a thousand inserts through the API would make this test slow.
    const names = many('pattern', 1000);
    await db
      .insertInto('patterns')
      .values(names.map((name) => ({ id: name, name, steps: jsonb([]), tags: jsonb([]) })))
      .execute();
    await db
      .insertInto('pattern_components')
      .values(names.flatMap((id) => components.map((c) => ({ pattern_id: id, component_id: c }))))
      .execute();

    const one = await queriesOf('/patterns?limit=1', 1);
    const all = await queriesOf('/patterns?limit=1000', 1000);
    expect(all.count).toBe(one.count);
    expect(one.count).toBe(2); // the page, then the links of all its patterns
    expect(all.data[999]).toMatchObject({ name: 'pattern-0999', components });
    expect(all.data.every((p: { components: string[] }) => p.components.length === 2)).toBe(true);
  });

  it('accessibility rules, each with its components', async () => {
    const components = await twoComponents();
    const names = many('rule', 1000);
    await db
      .insertInto('rules')
      .values(names.map((name) => ({ id: name, name, severity: 'minor', tags: jsonb([]) })))
      .execute();
    await db
      .insertInto('rule_components')
      .values(names.flatMap((id) => components.map((c) => ({ rule_id: id, component_id: c }))))
      .execute();

    const all = await queriesOf('/a11y?limit=1000', 1000);
    expect(all.count).toBe((await queriesOf('/a11y?limit=1', 1)).count);
    expect(all.data[999]).toMatchObject({ name: 'rule-0999', components });
  });

  it('components, each with its tokens', async () => {
    const [button] = await twoComponents();
    const tokens = (await api.get(`/components/${button}`)).body.data.tokens;
    const names = many('widget', 998);
    const empty = jsonb([]);
    await db
      .insertInto('components')
      .values(
        names.map((name) => ({
          ...{ id: name, name, status: 'draft' },
          ...{ props: empty, variants: empty, examples: empty, tags: empty },
        })),
      )
      .execute();
    await db
      .insertInto('component_tokens')
      .values(names.flatMap((id) => tokens.map((t: string) => ({ component_id: id, token_id: t }))))
      .execute();

    const all = await queriesOf('/components?limit=1000', 1000);
    expect(all.count).toBe((await queriesOf('/components?limit=1', 1)).count);
    expect(all.data.every((c: { tokens: string[] }) => c.tokens.length === 2)).toBe(true);
  });
});
