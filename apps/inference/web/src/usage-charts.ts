import type { DataOf, Datum } from '@platform/ui';

export type Request = DataOf<'inference.getUsage'>['requests'][number];

const HOUR = 3_600_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** Requests, errors and tokens per minute, hour or day (as the span asks), oldest first. */
export function overTime(requests: readonly Request[]): Datum[] {
  const times = requests.map((r) => Date.parse(r.created));
  const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
  const size = span <= 2 * HOUR ? 'minute' : span <= 48 * HOUR ? 'hour' : 'day';
  const buckets = new Map<
    string,
    { at: number; requests: number; errors: number; input: number; output: number }
  >();
  requests.forEach((r, i) => {
    const d = new Date(times[i]);
    const day = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    const key =
      size === 'day'
        ? day
        : `${day} ${pad(d.getHours())}:${size === 'hour' ? '00' : pad(d.getMinutes())}`;
    const b = buckets.get(key) ?? { at: times[i], requests: 0, errors: 0, input: 0, output: 0 };
    b.at = Math.min(b.at, times[i]);
    b.requests += 1;
    if (r.status === 'error') b.errors += 1;
    b.input += r.inputTokens ?? 0;
    b.output += r.outputTokens ?? 0;
    buckets.set(key, b);
  });
  return [...buckets]
    .sort(([, a], [, b]) => a.at - b.at)
    .map(([when, { at: _at, ...values }]) => ({ when, ...values }));
}

/** Sums of `value` per `by` (model or provider), largest first. */
export function breakdown(
  requests: readonly Request[],
  by: 'model' | 'provider',
  value: (r: Request) => number,
): Datum[] {
  const sums = new Map<string, number>();
  for (const r of requests) {
    const name = r[by] ?? '(none)';
    sums.set(name, (sums.get(name) ?? 0) + value(r));
  }
  return [...sums].sort((a, b) => b[1] - a[1]).map(([name, total]) => ({ name, total }));
}
