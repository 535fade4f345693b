/** How the README shows a declared variable's default and values (see variables.ts). */

export type Unit = 'bytes' | 'ms';
/** A bound: a number, or the name of another integer variable of the group. */
export type Bound = number | string;

export const code = (text: string) => `\`${text}\``;

/** The Default column: `documented` text, else the literal value, else `unset`. */
export const defaultText = (documented: string | undefined, literal?: string) =>
  documented ?? (literal === undefined ? 'unset' : code(literal));

const SCALES: Record<Unit, [number, string][]> = {
  bytes: [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ],
  ms: [
    [86_400_000, 'days'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ],
};

/** A round number in its unit (`32 MiB`, `15 min`), else undefined. */
function human(value: number, unit: Unit | undefined): string | undefined {
  const hit = unit && SCALES[unit].find(([size]) => value !== 0 && value % size === 0);
  if (!hit) return undefined;
  const count = value / hit[0];
  return `${count} ${count === 1 && hit[1] === 'days' ? 'day' : hit[1]}`;
}

/** An integer's Default column: `33554432` (32 MiB), `3600000` (1 h). */
export function intDefault(documented: string | undefined, value?: number, unit?: Unit) {
  if (documented !== undefined || value === undefined) return defaultText(documented);
  const known = human(value, unit);
  const large = value >= (unit === 'ms' ? 60_000 : 1024);
  return `${code(String(value))}${known && large ? ` (${known})` : ''}`;
}

/** An integer's Accepts column: `1 KiB to 64 MiB`, `at least 100 ms`, `1 to` `OTHER_VARIABLE`. */
export function intRange(min: Bound | undefined, max: Bound | undefined, unit?: Unit) {
  const shown = (value: Bound) => {
    if (typeof value === 'string') return code(value);
    if (value === 0 || !unit) return String(value);
    const plain = unit === 'ms' ? `${value} ms` : `${value} byte${value === 1 ? '' : 's'}`;
    return human(value, unit) ?? plain;
  };
  if (min !== undefined && max !== undefined) return `${shown(min)} to ${shown(max)}`;
  if (min !== undefined) return `at least ${shown(min)}`;
  if (max !== undefined) return `at most ${shown(max)}`;
  return 'an integer';
}
