import { hash } from 'node:crypto';
import Big from 'big.js';
import type { FocusRowsTable } from '../../database.js';
import { DIMENSIONS, IDENTITY, TIMESTAMPS } from './focus-columns.js';

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An ISO 8601 date or timestamp; without an offset it is UTC (FOCUS timestamps are), never the
 * server's time zone. null when it is not one (or not a real day or time).
 */
export function parseUtc(text: string): Date | null {
  const match = TIMESTAMP.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match.map((v) => v ?? '');
  const [year, month, day] = [Number(y), Number(mo), Number(d)];
  const [hour, minute, second] = [Number(h || 0), Number(mi || 0), Number(s || 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  if (zone && zone.toUpperCase() !== 'Z') {
    const [, sign, hours, minutes = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) ?? [];
    const offset = (Number(hours) * 60 + Number(minutes)) * 60_000;
    date.setTime(date.getTime() - (sign === '-' ? -offset : offset));
  }
  return date;
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const MAX_CENTS = new Big(Number.MAX_SAFE_INTEGER);

/**
 * Absent, as FOCUS writers write it: an empty cell, or NULL in any case (FOCUS 1.x: "Columns MUST
 * use NULL when there isn't a value"; exports write NULL, the specification's examples null).
 */
const absent = (text: string) =>
  text.length === 0 || (text.length === 4 && text.toLowerCase() === 'null');

/** A bounded cache: real exports repeat their timestamps and tag sets on many rows. */
function remembered<T>(read: (text: string) => T, size = 10_000) {
  let seen = new Map<string, T>();
  return (text: string): T => {
    let value = seen.get(text);
    if (value === undefined) {
      if (seen.size >= size) seen = new Map();
      value = read(text);
      seen.set(text, value);
    }
    return value;
  };
}

/** What a `Tags` cell means for a charge: its object (null: none), or undefined when not one. */
interface ReadTags {
  tags: Record<string, unknown> | null | undefined;
  /** The item's tags, as the JSON array staged. */
  itemTags: string;
  /** Its part of the charge's identity (its sorted entries), as a JSON string. */
  identityJson: string;
  /** Its value in `dimensions`, as JSON. */
  json: string;
}

function readTags(text: string): ReadTags {
  let tags: Record<string, unknown> | null | undefined = null;
  if (!absent(text))
    try {
      const parsed = JSON.parse(text) as unknown;
      tags =
        parsed && typeof parsed === 'object' && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : undefined;
    } catch {
      tags = undefined;
    }
  return {
    tags,
    itemTags: JSON.stringify(itemTags(tags ?? null)),
    identityJson: JSON.stringify(JSON.stringify(Object.entries(tags ?? {}).sort())),
    json: tags ? JSON.stringify(tags) : '',
  };
}

/** `key:value` item tags of the FOCUS tags (just `key` when it has no value), 50 at most. */
function itemTags(tags: Record<string, unknown> | null): string[] {
  const labels = Object.entries(tags ?? {}).map(([key, value]) =>
    value === null || value === ''
      ? key
      : `${key}:${typeof value === 'string' ? value : JSON.stringify(value)}`,
  );
  const fitting = labels.filter((label) => label.length >= 1 && label.length <= 50);
  return [...new Set(['synced', ...fitting])].slice(0, 50);
}

/** The item's period of a recurring charge: by the length of its charge period. */
function periodOf(start: Date, end: Date | null): string | null {
  if (!end) return null;
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  if (days === 1) return 'daily';
  if (days === 7) return 'weekly';
  if (days >= 28 && days <= 31) return 'monthly';
  if (days >= 89 && days <= 92) return 'quarterly';
  if (days === 365 || days === 366) return 'yearly';
  return null;
}

/** A charge to stage: focus_rows' columns but the sync job, row and id. */
export type StagedCharge = Omit<FocusRowsTable, 'sync_job_id' | 'row' | 'id'>;

/** The sync's range, and the currency of rows of a file without BillingCurrency. */
export interface FocusWindow {
  from: Date;
  to: Date;
  currency: string;
}

const show = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * Reads the rows of a file with this header: each (its cells, trimmed) as a charge to import, or
 * why it is skipped (outside the window, or not readable). Resolves each column once per file;
 * timestamps and tags are remembered across rows.
 */
export function focusReader(header: readonly string[], window: FocusWindow) {
  const index = new Map<string, number>();
  header.forEach((column, i) => index.set(column, i)); // a repeated name: the last one, as before
  const at = (column: string) => index.get(column) ?? -1;
  const [cost, currencyAt, start, end] = [
    at('BilledCost'),
    at('BillingCurrency'),
    at('ChargePeriodStart'),
    at('ChargePeriodEnd'),
  ];
  const [provider, service, description, category, frequency, tagsAt] = [
    at('ProviderName'),
    at('ServiceName'),
    at('ChargeDescription'),
    at('ServiceCategory'),
    at('ChargeFrequency'),
    at('Tags'),
  ];
  // IDENTITY's columns present: each its place and its normalisation, its name's when it has one.
  const identityColumns = IDENTITY.map((entry) =>
    (typeof entry === 'string' ? [entry] : entry)
      .map((column) => ({ prefix: `["${column}",`, i: at(column), kind: kindOf(column) }))
      .filter((column) => column.i >= 0),
  ).filter((columns) => columns.length > 0);
  // Staged dimensions name a column by its place in the header (the merge puts the names back),
  // and leave out ChargeDescription (the merge takes it from `description`): fewer bytes to write.
  const dimensionColumns = DIMENSIONS.filter(
    (c) => c !== 'Tags' && c !== 'ChargeDescription' && at(c) >= 0,
  ).map((c) => [`"${at(c)}":`, at(c)] as const);
  const tagsKey = `"${tagsAt}":`;
  const timestamp = remembered((text: string) => {
    const date = parseUtc(text);
    return { date, iso: date?.toISOString() ?? '' };
  });
  const tagsOf = remembered(readTags, 1000);

  // The row being read, and its cells as JSON strings (each made once, for identity and dimensions).
  let cells: readonly string[] = [];
  let row = 0;
  const jsonRow = new Array<number>(header.length).fill(-1);
  const jsonText = new Array<string>(header.length).fill('');
  const cell = (i: number) => {
    const text = i >= 0 ? (cells[i] ?? '') : '';
    return absent(text) ? '' : text;
  };
  const json = (i: number) => {
    if (jsonRow[i] !== row) {
      jsonRow[i] = row;
      jsonText[i] = jsonString(cell(i));
    }
    return jsonText[i];
  };

  /** sha256 of JSON.stringify([[column, normal], ...]), built as text, 32 hex characters. */
  const identity = (tags: ReadTags) => {
    let parts = '';
    for (const columns of identityColumns) {
      let column = columns[0];
      if (cell(column.i) === '' && columns.length > 1) column = columns[1];
      const value = cell(column.i);
      if (value === '') continue;
      let normal: string;
      if (column.kind === 'timestamp') {
        const { iso } = timestamp(value);
        normal = iso ? `"${iso}"` : json(column.i);
      } else if (column.kind === 'currency') normal = jsonString(value.toUpperCase());
      else if (column.kind === 'tags') normal = tags.identityJson;
      else normal = json(column.i);
      parts += `${parts ? ',' : ''}${column.prefix}${normal}]`;
    }
    return hash('sha256', `[${parts}]`).slice(0, 32);
  };

  return (record: readonly string[]): { charge: StagedCharge } | { skip: string } => {
    cells = record;
    row += 1;
    const { date, iso } = timestamp(cell(start));
    if (!date) return { skip: `ChargePeriodStart is not a date: ${show(cells[start] ?? '')}` };
    if (date < window.from || date > window.to)
      return {
        skip: `ChargePeriodStart ${iso} is outside the sync's range (${window.from.toISOString()} to ${window.to.toISOString()})`,
      };
    const costText = cell(cost);
    if (!DECIMAL.test(costText))
      return { skip: `BilledCost is not a decimal number: ${show(cells[cost] ?? '')}` };
    const exact = new Big(costText).times(100);
    if (exact.abs().gt(MAX_CENTS)) return { skip: 'BilledCost is out of range' };
    const currency = currencyAt >= 0 ? cell(currencyAt) : window.currency;
    if (!/^[A-Za-z]{3}$/.test(currency))
      return { skip: `BillingCurrency is not a 3-letter code: ${show(cells[currencyAt] ?? '')}` };
    const tags = tagsOf(cell(tagsAt));
    if (tags.tags === undefined)
      return { skip: `Tags is not a JSON object: ${show(cells[tagsAt] ?? '')}` };

    let dimensions = '';
    for (const [key, i] of dimensionColumns)
      if (cell(i) !== '') dimensions += `${dimensions ? ',' : ''}${key}${json(i)}`;
    if (tags.tags) dimensions += `${dimensions ? ',' : ''}${tagsKey}${tags.json}`;
    const recurring = cell(frequency).toLowerCase() === 'recurring';
    const serviceName = cell(service);
    const descriptionText = cell(description);
    return {
      charge: {
        provider: cell(provider).slice(0, 200) || 'focus',
        provider_ref: identity(tags),
        name: null, // the merge's: the service, else the description, else 'FOCUS charge'
        exact_amount: exact.toFixed(),
        currency: currency.toUpperCase(),
        date: iso,
        description: descriptionText || null, // whole: the merge keeps 2,000 characters
        category: cell(category).slice(0, 200) || null,
        service: serviceName.slice(0, 200) || null,
        recurring,
        period: recurring ? periodOf(date, timestamp(cell(end)).date) : null,
        tags: tags.itemTags,
        dimensions: `{${dimensions}}`,
      },
    };
  };
}

/** How the identity normalises a column (see IDENTITY). */
function kindOf(column: string) {
  if (TIMESTAMPS.has(column)) return 'timestamp';
  if (column === 'BillingCurrency') return 'currency';
  return column === 'Tags' ? 'tags' : 'plain';
}

/** JSON.stringify of a string: as is, quoted, when it holds nothing JSON escapes. */
export function jsonString(text: string): string {
  return /["\\\u0000-\u001f\ud800-\udfff]/.test(text) ? JSON.stringify(text) : `"${text}"`;
}
