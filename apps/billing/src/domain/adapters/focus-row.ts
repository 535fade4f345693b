import { createHash } from 'node:crypto';
import Big from 'big.js';
import type { FocusRowsTable } from '../../database.js';

/** The columns without which a file is not a FOCUS cost export. */
export const REQUIRED_COLUMNS = ['BilledCost', 'BillingCurrency', 'ChargePeriodStart'] as const;

/**
 * The FOCUS (1.0 to 1.2) columns that tell one charge from another: every dimension, none of the
 * metrics (costs, prices, quantities), which are what a restated export changes. Of an id and its
 * display name ([id, name]) only the id counts, the name when the id is empty: a renamed account
 * is the same account. InvoiceId is left out (it appears once the month is invoiced), and so are
 * provider columns (`x_...`).
 */
const IDENTITY: ReadonlyArray<string | readonly [string, string]> = [
  'AvailabilityZone',
  ['BillingAccountId', 'BillingAccountName'],
  'BillingAccountType',
  'BillingCurrency',
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'CapacityReservationId',
  'CapacityReservationStatus',
  'ChargeCategory',
  'ChargeClass',
  'ChargeDescription',
  'ChargeFrequency',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'CommitmentDiscountCategory',
  ['CommitmentDiscountId', 'CommitmentDiscountName'],
  'CommitmentDiscountStatus',
  'CommitmentDiscountType',
  'CommitmentDiscountUnit',
  'ConsumedUnit',
  'InvoiceIssuerName',
  'PricingCategory',
  'PricingCurrency',
  'PricingUnit',
  'ProviderName',
  'PublisherName',
  ['RegionId', 'RegionName'],
  ['ResourceId', 'ResourceName'],
  'ResourceType',
  'ServiceCategory',
  'ServiceName',
  'ServiceSubcategory',
  'SkuId',
  'SkuMeter',
  'SkuPriceId',
  ['SubAccountId', 'SubAccountName'],
  'SubAccountType',
  'Tags',
];

/** Columns an item holds in its own fields; the other dimensions go to `dimensions`. */
const IN_FIELDS = new Set([...REQUIRED_COLUMNS, 'ProviderName', 'ServiceName', 'ServiceCategory']);
const TIMESTAMPS = new Set([
  'BillingPeriodStart',
  'BillingPeriodEnd',
  'ChargePeriodStart',
  'ChargePeriodEnd',
]);
/** Every column of IDENTITY, names included: what `dimensions` keeps of a row. */
const DIMENSIONS = IDENTITY.flat().filter((column) => !IN_FIELDS.has(column));

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

/** The FOCUS `Tags` cell: a JSON object, or empty. */
function readTags(text: string): Record<string, unknown> | null | undefined {
  if (text === '') return null;
  try {
    const tags = JSON.parse(text) as unknown;
    return tags && typeof tags === 'object' && !Array.isArray(tags)
      ? (tags as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
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
function periodOf(start: Date, endText: string): string | null {
  const end = endText ? parseUtc(endText) : null;
  if (!end) return null;
  const days = (end.getTime() - start.getTime()) / 86_400_000;
  if (days === 1) return 'daily';
  if (days === 7) return 'weekly';
  if (days >= 28 && days <= 31) return 'monthly';
  if (days >= 89 && days <= 92) return 'quarterly';
  if (days === 365 || days === 366) return 'yearly';
  return null;
}

/** A sha256 of the row's identifying columns (normalised), 32 hex characters. */
function identity(row: Record<string, string>, tags: Record<string, unknown> | null): string {
  const parts: Array<[string, string]> = [];
  for (const entry of IDENTITY) {
    const [column, value] =
      typeof entry === 'string'
        ? [entry, row[entry] ?? '']
        : row[entry[0]]
          ? [entry[0], row[entry[0]]]
          : [entry[1], row[entry[1]] ?? ''];
    if (value === '') continue;
    let normal = value;
    if (TIMESTAMPS.has(column)) normal = parseUtc(value)?.toISOString() ?? value;
    if (column === 'BillingCurrency') normal = value.toUpperCase();
    if (column === 'Tags') normal = JSON.stringify(Object.entries(tags ?? {}).sort());
    parts.push([column, normal]);
  }
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);
}

export type StagedCharge = Omit<FocusRowsTable, 'sync_job_id' | 'row' | 'id'>;

/**
 * One FOCUS row (cells by column name, trimmed) as a charge to import, or why it is skipped:
 * a row outside [from, to] or one that cannot be read.
 */
export function readFocusRow(
  row: Record<string, string>,
  window: { from: Date; to: Date },
): { charge: StagedCharge } | { skip: string } {
  const cell = (column: string) => row[column] ?? '';
  const show = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  const date = parseUtc(cell('ChargePeriodStart'));
  if (!date) return { skip: `ChargePeriodStart is not a date: ${show(cell('ChargePeriodStart'))}` };
  if (date < window.from || date > window.to)
    return {
      skip: `ChargePeriodStart ${date.toISOString()} is outside the sync's range (${window.from.toISOString()} to ${window.to.toISOString()})`,
    };
  if (!DECIMAL.test(cell('BilledCost')))
    return { skip: `BilledCost is not a decimal number: ${show(cell('BilledCost'))}` };
  const exact = new Big(cell('BilledCost')).times(100);
  if (exact.abs().gt(MAX_CENTS)) return { skip: 'BilledCost is out of range' };
  const currency = cell('BillingCurrency');
  if (!/^[A-Za-z]{3}$/.test(currency))
    return { skip: `BillingCurrency is not a 3-letter code: ${show(currency)}` };
  const tags = readTags(cell('Tags'));
  if (tags === undefined) return { skip: `Tags is not a JSON object: ${show(cell('Tags'))}` };
  const dimensions: Record<string, unknown> = {};
  for (const column of DIMENSIONS) if (cell(column) !== '') dimensions[column] = cell(column);
  if (tags) dimensions.Tags = tags;
  const recurring = cell('ChargeFrequency').toLowerCase() === 'recurring';
  return {
    charge: {
      provider: cell('ProviderName').slice(0, 200) || 'focus',
      provider_ref: identity(row, tags),
      name: (cell('ServiceName') || cell('ChargeDescription') || 'FOCUS charge').slice(0, 200),
      exact_amount: exact.toFixed(),
      currency: currency.toUpperCase(),
      date,
      description: cell('ChargeDescription').slice(0, 2000) || null,
      category: cell('ServiceCategory').slice(0, 200) || null,
      service: cell('ServiceName').slice(0, 200) || null,
      recurring,
      period: recurring ? periodOf(date, cell('ChargePeriodEnd')) : null,
      tags: itemTags(tags),
      dimensions,
    },
  };
}
