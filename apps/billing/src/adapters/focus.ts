import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { cents, ProviderError, type Adapter } from './adapter.js';

/** A FOCUS (FinOps Open Cost and Usage Specification) CSV export, posted in the request. */
export const focusAdapter: Adapter = {
  name: 'focus',
  description:
    'A FOCUS 1.x CSV sent as `csv` (BilledCost, BillingCurrency, ChargePeriodStart, ...)',
  needsToken: false,
  baseUrl: null,
  async fetch({ csv, from, to }) {
    if (!csv) throw new ProviderError('focus needs the CSV in `csv`');
    let rows: Array<Record<string, string>>;
    try {
      rows = parse(csv, { columns: true, skip_empty_lines: true, trim: true });
    } catch (error) {
      throw new ProviderError(`The FOCUS CSV does not parse: ${(error as Error).message}`);
    }
    for (const column of ['BilledCost', 'BillingCurrency', 'ChargePeriodStart'])
      if (rows.length > 0 && !(column in rows[0]))
        throw new ProviderError(`The FOCUS CSV has no ${column} column`);
    return rows.flatMap((row, i) => {
      const date = new Date(row.ChargePeriodStart);
      if (Number.isNaN(date.getTime()))
        throw new ProviderError(`Row ${i + 2}: ChargePeriodStart is not a date`);
      if (date < from || date > to) return [];
      let amount: number;
      try {
        amount = cents(row.BilledCost, 2);
      } catch {
        throw new ProviderError(`Row ${i + 2}: BilledCost is not a number`);
      }
      const identity = [
        row.ChargePeriodStart,
        row.ProviderName,
        row.ResourceId,
        row.SkuId,
        row.ChargeDescription,
        row.ServiceName,
      ]
        .map((v) => v ?? '')
        .join('|');
      return {
        providerRef: createHash('sha256').update(identity).digest('hex').slice(0, 32),
        name: row.ServiceName || row.ChargeDescription || 'FOCUS charge',
        amount,
        currency: row.BillingCurrency.toUpperCase(),
        date,
        description: row.ChargeDescription || null,
      };
    });
  },
};
