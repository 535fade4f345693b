import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { CsvReader, type CsvItem } from '../src/domain/adapters/focus-csv';

// The FOCUS import's own CSV reader (issue 39: csv-parse was slower than the database) against
// csv-parse, as the oracle, on random files cut into random pieces.

function read(text: string, sizes: number[]): CsvItem[] {
  const reader = new CsvReader();
  const items: CsvItem[] = [];
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const size = sizes[i % sizes.length];
    items.push(...reader.push(text.slice(at, at + size)));
    at += size;
  }
  return [...items, ...reader.end()];
}

/** csv-parse's records and lines, with the options the import used before. */
const oracle = (text: string) =>
  (
    parse(text, {
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>
  ).map(({ record, info }) => ({ cells: record, line: info.lines }));

const value = fc
  .array(fc.constantFrom('a', 'B', ' ', ',', '"', '\n', 'é', '€', '0', '.', '{', ':'), {
    maxLength: 8,
  })
  .map((chars) => chars.join('').trim());
const cell = fc
  .tuple(value, fc.boolean())
  .map(([v, quote]) => (quote || /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v));
const file = fc
  .tuple(
    fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
    fc.constantFrom('\n', '\r\n'),
    fc.boolean(),
    fc.boolean(),
  )
  .map(
    ([rows, eol, last, bom]) =>
      `${bom ? '\uFEFF' : ''}${rows.map((r) => r.join(',')).join(eol)}${last ? eol : ''}`,
  );

it('reads what csv-parse reads, cells and lines, however the text is cut', () => {
  fc.assert(
    fc.property(file, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (text, sizes) => {
      const expected = oracle(text);
      expect(read(text, sizes)).toEqual(expected);
      expect(read(text, [text.length || 1])).toEqual(expected);
    }),
    { numRuns: 500 },
  );
});

it('skips empty lines and counts them, trims blanks outside quotes, drops a byte-order mark', () => {
  const text = '\uFEFFa, b ,c\r\n\r\n  \n "x , y" ,"multi\nline",  \n';
  expect(read(text, [3])).toEqual([
    { cells: ['a', 'b', 'c'], line: 1 },
    { cells: ['x , y', 'multi\nline', ''], line: 5 },
  ]);
});

it('reports what is not CSV with its line, and reads on at the next line', () => {
  expect(read('a,b\n"x"y,1\nc,d\n"open,2\n', [4])).toEqual([
    { cells: ['a', 'b'], line: 1 },
    {
      problem: 'Invalid Closing Quote: "y,1" follows a closing quote on line 2',
      line: 2,
    },
    { cells: ['c', 'd'], line: 3 },
    {
      problem: 'Quote Not Closed: the quote opened on line 4 is not closed at the end of the file',
      line: 4,
    },
  ]);
  // A quote inside an unquoted value is text (csv-parse's relax_quotes).
  expect(read('size,note\n12,5" disk\n', [100])).toEqual([
    { cells: ['size', 'note'], line: 1 },
    { cells: ['12', '5" disk'], line: 2 },
  ]);
});

it('keeps a record that is still arriving, however long', () => {
  const reader = new CsvReader();
  expect(reader.push('a,"long')).toEqual([]);
  const piece = 'x'.repeat(65_536);
  let items: CsvItem[] = [];
  for (let i = 0; i < 256; i++) items = items.concat(reader.push(piece)); // 16 MiB in one value
  expect(items).toEqual([]);
  items = items.concat(reader.push('"\n'), reader.end());
  expect(items).toHaveLength(1);
  expect((items[0] as { cells: string[] }).cells[1]).toHaveLength(16 * 2 ** 20 + 4);
});
