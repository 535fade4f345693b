import { columnIndex, columnLetters, parseA1 } from '../src/domain/workflows/a1';
import { parseWorkflow } from '../src/domain/workflows/definition';
import { render, TemplateError } from '../src/domain/workflows/template';

const scope = {
  config: { greeting: 'Hello', limits: { max: 3 }, list: ['a', 'b'] },
  auth: { kind: 'user', email: 'ada@example.com' },
  input: { n: 42, who: 'Ada', flag: false, nothing: null, nested: { deep: { x: 1 } } },
  app: { sid: 'Ab3dEf9h', name: 'shop' },
  steps: { sheet: { spreadsheetId: 'S1', values: [['x', 2]] } },
};

describe('templates', () => {
  it('keeps the type of a string that is exactly one template', () => {
    expect(render('{{ input.n }}', scope)).toBe(42);
    expect(render('  {{input.flag}} ', scope)).toBe(false);
    expect(render('{{ input.nested }}', scope)).toEqual({ deep: { x: 1 } });
    expect(render('{{ config.limits.max }}', scope)).toBe(3);
    expect(render('{{ steps.sheet.values[0][1] }}', scope)).toBe(2);
    expect(render('{{ input.nothing }}', scope)).toBeNull();
  });

  it('interpolates text otherwise, in every nested string, leaving other values alone', () => {
    expect(render('{{ config.greeting }}, {{ input.who }} ({{ input.n }})', scope)).toBe(
      'Hello, Ada (42)',
    );
    expect(render('x{{ input.nested }}|{{ input.nothing }}|', scope)).toBe('x{"deep":{"x":1}}||');
    expect(
      render({ a: ['{{ app.sid }}', { b: 'by {{ auth.email }}' }], n: 1, t: true }, scope),
    ).toEqual({ a: ['Ab3dEf9h', { b: 'by ada@example.com' }], n: 1, t: true });
    expect(render('no templates {here}', scope)).toBe('no templates {here}');
  });

  it('names an unknown variable instead of answering an empty string', () => {
    const fail = (text: string) => {
      try {
        render(text, scope);
      } catch (error) {
        expect(error).toBeInstanceOf(TemplateError);
        return (error as Error).message;
      }
      throw new Error(`${text} rendered`);
    };
    expect(fail('{{ input.missing }}')).toBe('Unknown template variable input.missing');
    expect(fail('a {{ input.nested.deep.y }}')).toBe(
      'Unknown template variable input.nested.deep.y',
    );
    expect(fail('{{ config.list[2] }}')).toBe('Unknown template variable config.list[2]');
    expect(fail('{{ steps.other.id }}')).toBe('Unknown template variable steps.other');
    expect(fail('{{ secrets.token }}')).toMatch(
      /^Unknown template variable secrets.token: it must start with config, auth/,
    );
  });

  it('is lookups only: no code, no prototype', () => {
    for (const text of [
      '{{ input.n + 1 }}',
      '{{ process.env }}',
      "{{ input['n'] }}",
      '{{ input.who.toUpperCase() }}',
      '{{ constructor.constructor("return process")() }}',
    ])
      expect(() => render(text, scope)).toThrow(TemplateError);
    expect(() => render('{{ input.constructor }}', scope)).toThrow(
      'Unknown template variable input.constructor',
    );
    expect(() => render('{{ input.__proto__ }}', scope)).toThrow(
      'Unknown template variable input.__proto__',
    );
    expect(() => render('{{ input.who.length }}', scope)).toThrow(
      'Unknown template variable input.who.length',
    );
  });
});

describe('A1 ranges', () => {
  it('parses sheets, quoted names, cells, whole columns and rows', () => {
    expect(parseA1('Sheet1!A1:C3')).toEqual({
      sheet: 'Sheet1',
      startRow: 0,
      startCol: 0,
      endRow: 2,
      endCol: 2,
    });
    expect(parseA1("'My Sheet'!A:D")).toEqual({
      sheet: 'My Sheet',
      startRow: 0,
      startCol: 0,
      endRow: null,
      endCol: 3,
    });
    expect(parseA1('Sheet1')).toEqual({
      sheet: 'Sheet1',
      startRow: 0,
      startCol: 0,
      endRow: null,
      endCol: null,
    });
    expect(parseA1("'It''s'!B2")).toEqual({
      sheet: "It's",
      startRow: 1,
      startCol: 1,
      endRow: 1,
      endCol: 1,
    });
    expect(parseA1('A2:B')).toEqual({
      sheet: null,
      startRow: 1,
      startCol: 0,
      endRow: null,
      endCol: 1,
    });
    expect(parseA1('Data!2:5')).toEqual({
      sheet: 'Data',
      startRow: 1,
      startCol: 0,
      endRow: 4,
      endCol: null,
    });
    expect(parseA1('data!aa10:ab20')).toMatchObject({
      startCol: 26,
      endCol: 27,
      startRow: 9,
      endRow: 19,
    });
    expect([columnIndex('A'), columnIndex('Z'), columnIndex('AA'), columnIndex('ZZ')]).toEqual([
      0, 25, 26, 701,
    ]);
    expect([columnLetters(0), columnLetters(25), columnLetters(26), columnLetters(701)]).toEqual([
      'A',
      'Z',
      'AA',
      'ZZ',
    ]);
  });

  it.each([
    'Sheet1!',
    "'Open!A1",
    'Sheet1!C3:A1',
    'Sheet1!A0',
    'S!A1:B2:C3',
    "'a'b'!A1",
    '',
    'Sheet1!1A',
  ])('refuses %p as Google does', (text) =>
    expect(() => parseA1(text)).toThrow(`Unable to parse range: ${text}`),
  );
});

describe('workflow definitions', () => {
  const file = (steps: unknown, extra: object = {}) =>
    JSON.stringify({ version: 1, workflows: { signup: { steps } }, ...extra });
  const problem = (content: string, name = 'signup') => {
    try {
      parseWorkflow('shop', content, name);
    } catch (error) {
      return `${(error as { statusCode: number }).statusCode} ${(error as Error).message}`;
    }
    throw new Error('parsed');
  };

  it('reads steps with their block, as and fields', () => {
    const wf = parseWorkflow(
      'shop',
      file([{ 'pulse.track': { name: 'x' }, as: 'ev' }, { respond: { id: '{{ steps.ev.id }}' } }]),
      'signup',
    );
    expect(wf.steps).toEqual([
      { index: 0, block: 'pulse.track', as: 'ev', fields: { name: 'x' } },
      { index: 1, block: 'respond', as: null, fields: { id: '{{ steps.ev.id }}' } },
    ]);
  });

  it.each([
    ['not json', '{', /^400 \/app\/platform.workflows.json of shop is not JSON/],
    [
      'version',
      JSON.stringify({ version: 2, workflows: {} }),
      /^400 .*field version must be 1, got 2$/,
    ],
    [
      'workflows',
      JSON.stringify({ version: 1, workflows: [] }),
      /^400 .*field workflows must be an object/,
    ],
    ['unknown top field', file([], { extra: 1 }), /^400 .*unknown field: extra/],
    [
      'unknown workflow',
      file([{ respond: {} }]),
      /^404 Workflow not found: other \(shop has signup\)$/,
      'other',
    ],
    [
      'steps',
      JSON.stringify({ version: 1, workflows: { signup: { steps: {} } } }),
      /^400 Workflow signup: field steps must be an array$/,
    ],
    ['no steps', file([]), /^400 Workflow signup: field steps is empty$/],
    [
      'two blocks',
      file([{ respond: {}, 'pulse.track': { name: 'a' } }]),
      /^400 Workflow signup, steps\[0\] must have exactly one key naming a block \(besides "as"\), it has respond, pulse.track$/,
    ],
    [
      'unknown block',
      file([{ respond: {} }, { 'mail.send': {} }]),
      /^400 Workflow signup, steps\[1\]: unknown block mail.send \(blocks: communication.send, /,
    ],
    [
      'unknown field',
      file([{ 'communication.send': { channelId: 'c', text: 't', cc: 'x' }, as: 'mail' }]),
      /^400 Workflow signup, steps\[0\] \(communication.send as "mail"\): unknown field cc \(the fields of communication.send: channelId, to, subject, text, html, metadata\)$/,
    ],
    [
      'required',
      file([{ 'billing.createItem': { name: 'n' } }]),
      /^400 Workflow signup, steps\[0\] \(billing.createItem\): field amount is required$/,
    ],
    [
      'type',
      file([{ 'billing.createItem': { name: 'n', amount: '12' } }]),
      /steps\[0\] \(billing.createItem\): field amount must be an integer$/,
    ],
    [
      'enum',
      file([
        { 'sheets.getValues': { spreadsheetId: 's', range: 'A1', majorDimension: 'DIAGONAL' } },
      ]),
      /field majorDimension must be one of ROWS, COLUMNS$/,
    ],
    [
      'rows',
      file([{ 'sheets.appendValues': { spreadsheetId: 's', range: 'A1', values: ['a'] } }]),
      /field values must be an array of rows/,
    ],
    [
      'object',
      file([{ 'pulse.track': { name: 'n', properties: [] } }]),
      /field properties must be an object$/,
    ],
    [
      'fields not object',
      file([{ 'ledger.log': 'x' }]),
      /steps\[0\] \(ledger.log\): its value must be an object of fields/,
    ],
    ['as', file([{ respond: {}, as: '1x' }]), /steps\[0\] \(respond\): field as must be a name/],
    [
      'as twice',
      file([
        { respond: {}, as: 'a' },
        { respond: {}, as: 'a' },
      ]),
      /steps\[1\] \(respond\): field as: a names an earlier step already$/,
    ],
    [
      'bad template',
      file([{ 'pulse.track': { name: '{{ input.a + 1 }}' } }]),
      /steps\[0\] \(pulse.track\): field name: Invalid template \{\{ input.a \+ 1 \}\}/,
    ],
    [
      'unknown root',
      file([{ 'pulse.track': { name: '{{ env.HOME }}' } }]),
      /field name: Unknown template variable env.HOME/,
    ],
    [
      'later step',
      file([{ respond: { x: '{{ steps.b.id }}' } }, { respond: {}, as: 'b' }]),
      /steps\[0\] \(respond\): field payload: unknown template variable steps.b.id/,
    ],
  ])('refuses %s, naming the step and field', (_, content, expected, name = 'signup') => {
    expect(problem(content as string, name as string)).toMatch(expected as RegExp);
  });

  it('lets a template stand for a number, an object or rows until it is resolved', () => {
    const wf = parseWorkflow(
      'shop',
      file([
        {
          'billing.createItem': {
            name: 'n',
            amount: '{{ input.cents }}',
            tags: '{{ input.tags }}',
          },
        },
        {
          'sheets.appendValues': {
            spreadsheetId: 's',
            range: 'A1',
            values: ['{{ input.row }}', ['{{ input.n }}', 2]],
          },
        },
      ]),
      'signup',
    );
    expect(wf.steps).toHaveLength(2);
  });
});
