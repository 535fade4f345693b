import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorBanner, Loading } from './feedback';
import type { FilterSpec } from './resource';
import {
  DataTable,
  FilterBar,
  FilterInput,
  FilterSelect,
  Pager,
  useListParams,
  type Column,
} from './table';

/**
 * A list read from the API with its filters and paging kept in the URL: the filter bar, the
 * table (the previous page stays shown, busy, while the next loads), the pager, errors. Used by
 * every resource's list page, and by any page listing rows of its own (a run's steps, an app's
 * deliveries): `queryKey` names the list, `list` fetches one page for the URL's query.
 */
export function QueryList<T>({
  queryKey,
  list,
  columns,
  rowKey,
  href,
  filters = [],
  empty = 'Nothing matches.',
  refetchInterval,
}: {
  queryKey: readonly unknown[];
  list(query: Record<string, string | number>): Promise<T[]>;
  columns: readonly Column<T>[];
  rowKey(row: T): string;
  href?(row: T): string;
  filters?: readonly FilterSpec[];
  empty?: ReactNode;
  /** Polls while it returns a number of milliseconds (rows still changing), given the rows. */
  refetchInterval?(rows: T[] | undefined): number | false;
}) {
  const params = useListParams();
  const off = (f: FilterSpec) => f.requires !== undefined && !params.get(f.requires);
  const sent: Record<string, string | number> = { ...params.query };
  for (const f of filters) if (off(f)) delete sent[f.name];
  const rows = useQuery<T[]>({
    queryKey: [...queryKey, sent],
    queryFn: () => list(sent),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => refetchInterval?.(query.state.data) ?? false,
  });
  return (
    <>
      {filters.length > 0 && (
        <FilterBar>
          {filters.map((f) =>
            f.options ? (
              <FilterSelect
                key={f.name}
                label={f.label}
                value={params.get(f.name)}
                onChange={(v) => params.set(f.name, v)}
                options={f.options}
                disabled={off(f)}
              />
            ) : (
              <FilterInput
                key={f.name}
                label={f.label}
                type={f.type}
                value={params.get(f.name)}
                onChange={(v) => params.set(f.name, v)}
              />
            ),
          )}
        </FilterBar>
      )}
      <ErrorBanner error={rows.error} />
      {rows.isPending ? (
        <Loading />
      ) : (
        <>
          <DataTable
            rows={rows.data ?? []}
            columns={columns}
            rowKey={rowKey}
            href={href}
            empty={empty}
            busy={rows.isPlaceholderData}
          />
          <Pager
            limit={params.limit}
            offset={params.offset}
            count={rows.data?.length ?? 0}
            onOffset={(o) => params.set('offset', String(o))}
          />
        </>
      )}
    </>
  );
}
