import Big from 'big.js';

// Generated FOCUS files for the import tests: deterministic rows, and a stream of them of any
// size (generated as it is read, never held whole).

export const HEADER = [
  'BilledCost',
  'BillingCurrency',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ProviderName',
  'ServiceName',
  'ServiceCategory',
  'SubAccountId',
  'SubAccountName',
  'RegionName',
  'ResourceId',
  'SkuId',
  'ChargeCategory',
  'ChargeFrequency',
  'Tags',
].join(',');

/**
 * Row i: a usage charge of January 2026, of a resource of its own, 0.449 to 4.449 cents: each
 * rounded alone loses 0.449 cents.
 */
export function focusRow(i: number) {
  const cost = new Big(i % 5).div(100).plus('0.00449');
  const day = String(1 + (i % 28)).padStart(2, '0');
  const next = String(2 + (i % 28)).padStart(2, '0');
  return {
    cost: cost.toFixed(),
    line: [
      cost.toFixed(),
      'USD',
      `2026-01-${day}T00:00:00Z`,
      `2026-01-${next}T00:00:00Z`,
      i % 2 ? 'AWS' : 'Microsoft',
      i % 2 ? 'Amazon EC2' : 'Virtual Machines',
      'Compute',
      `acct-${i % 3}`,
      `Account ${i % 3}`,
      i % 2 ? 'US East (N. Virginia)' : 'West Europe',
      `res-${i}`,
      `sku-${i % 5}`,
      'Usage',
      'Usage-Based',
      `"{""env"":""${i % 2 ? 'prod' : 'dev'}""}"`,
    ].join(','),
  };
}

/** A FOCUS file of `rows` rows and its exact total in cents. */
export function focusFile(rows: number) {
  const lines = [HEADER];
  let total = new Big(0);
  for (let i = 0; i < rows; i++) {
    const row = focusRow(i);
    lines.push(row.line);
    total = total.plus(row.cost);
  }
  return { csv: `${lines.join('\n')}\n`, exactCents: total.times(100) };
}

/** At least `bytes` of FOCUS CSV, generated in ~64 KiB pieces; `rows()` tells how many rows. */
export function focusStream(bytes: number) {
  let rows = 0;
  async function* generate() {
    let sent = 0;
    let piece = `${HEADER}\n`;
    while (sent < bytes) {
      while (piece.length < 65_536) piece += `${focusRow(rows++).line}\n`;
      sent += Buffer.byteLength(piece);
      yield piece;
      piece = '';
    }
  }
  return { body: generate(), rows: () => rows };
}
