/** Dates as people read them, in their own locale and time zone; ISO strings or epoch ms. */
export function formatDate(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** Integer cents as money: 123456 -> "$1,234.56". */
export function formatCents(cents: number | null | undefined, currency = 'USD'): string {
  if (cents === null || cents === undefined) return '—';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);
}

/** Integer micro-dollars as money: 1500 -> "$0.0015". */
export function formatMicros(micros: number | null | undefined): string {
  if (micros === null || micros === undefined) return '—';
  return `$${(micros / 1e6).toLocaleString(undefined, { maximumFractionDigits: 6 })}`;
}

export const formatNumber = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n.toLocaleString();
