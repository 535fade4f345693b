import { FilterInput, FilterSelect, useListParams } from '@platform/ui';

/** The insight pages' parameters, kept in the URL like a list's filters. */
export type Params = ReturnType<typeof useListParams>;

/** The browser's own zone, the default of the pages (the API's is UTC). */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The query to send: the URL's non-empty values, tz defaulting to the browser's zone. */
export function insightQuery(params: Params): Record<string, string> {
  return { tz: browserZone(), ...params.filters };
}

export function Text({
  params,
  name,
  label,
  type,
  placeholder,
}: {
  params: Params;
  name: string;
  label: string;
  type?: 'date' | 'number';
  placeholder?: string;
}) {
  return (
    <FilterInput
      label={label}
      type={type}
      placeholder={placeholder}
      value={params.get(name)}
      onChange={(v) => params.set(name, v)}
    />
  );
}

export function Choice({
  params,
  name,
  label,
  options,
  any,
}: {
  params: Params;
  name: string;
  label: string;
  options: readonly (string | { value: string; label: string })[];
  any: string;
}) {
  return (
    <FilterSelect
      label={label}
      value={params.get(name)}
      onChange={(v) => params.set(name, v)}
      options={options}
      any={any}
    />
  );
}

/** From, to and time zone: every insight has them. */
export function RangeControls({ params }: { params: Params }) {
  return (
    <>
      <Text params={params} name="from" label="From" type="date" />
      <Text params={params} name="to" label="To" type="date" />
      <Text params={params} name="tz" label="Time zone" placeholder={browserZone()} />
    </>
  );
}

/** A period as the tables show it: local date, with the hour and offset for hours. */
export const periodLabel = (start: string, interval: string) =>
  interval === 'hour'
    ? `${start.slice(0, 10)} ${start.slice(11, 16)} (${start.slice(19)})`
    : start.slice(0, 10);

export const percent = (share: number) => `${(100 * share).toFixed(1)}%`;
