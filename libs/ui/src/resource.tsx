import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Route, useNavigate, useParams } from 'react-router';
import { ConfirmButton } from './dialog';
import { Card, Details, ErrorBanner, Loading } from './feedback';
import { ResourceForm, type FieldSpec } from './resource-form';
import { PageHeader } from './shell';
import {
  DataTable,
  FilterBar,
  FilterInput,
  FilterSelect,
  Pager,
  useListParams,
  type Column,
} from './table';

export type { FieldSpec };

export interface FilterSpec {
  name: string;
  label: string;
  options?: readonly string[];
  type?: 'search' | 'text' | 'date' | 'datetime-local' | 'number';
}

/** One resource's pages: list (filters, paging), detail, create, edit, delete. */
export interface ResourceSpec<T> {
  /** Path under the app (`services`), and the words for it (`service`, `services`). */
  path: string;
  singular: string;
  plural: string;
  key(row: T): string;
  title(row: T): string;
  list(query: Record<string, string | number>): Promise<T[]>;
  get(key: string): Promise<T>;
  create?(body: Record<string, unknown>): Promise<T>;
  update?(key: string, body: Record<string, unknown>): Promise<T>;
  remove?(key: string): Promise<unknown>;
  /** The delete button's word and question, when deleting is something else (revoke, disconnect). */
  removeLabel?: string;
  removeQuestion?(row: T): string;
  columns: readonly Column<T>[];
  filters?: readonly FilterSpec[];
  fields?: readonly FieldSpec[];
  details(row: T): [string, ReactNode][];
  /** More of the detail page: related lists, the resource's own views. */
  more?(row: T): ReactNode;
  description?: ReactNode;
  /** More actions beside "New" on the list page. */
  actions?: ReactNode;
}

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
  const rows = useQuery<T[]>({
    queryKey: [...queryKey, params.query],
    queryFn: () => list(params.query),
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

function ListPage<T>({ spec }: { spec: ResourceSpec<T> }) {
  return (
    <>
      <PageHeader
        title={spec.plural[0].toUpperCase() + spec.plural.slice(1)}
        actions={
          <>
            {spec.actions}
            {spec.create && (
              <Link className="ui-button ui-button-primary" to={`/${spec.path}/new`}>
                New {spec.singular}
              </Link>
            )}
          </>
        }
      >
        {spec.description}
      </PageHeader>
      <QueryList
        queryKey={[spec.path, 'list']}
        list={spec.list}
        columns={spec.columns}
        rowKey={spec.key}
        href={(r) => `/${spec.path}/${encodeURIComponent(spec.key(r))}`}
        filters={spec.filters}
        empty={`No ${spec.plural} match.`}
      />
    </>
  );
}

function DetailPage<T>({ spec }: { spec: ResourceSpec<T> }) {
  const key = useParams().key!;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => spec.remove!(key),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: [spec.path, 'get', key] });
      await navigate(`/${spec.path}`);
      await queryClient.invalidateQueries({ queryKey: [spec.path, 'list'] });
    },
  });
  // Not fetched again once it is being deleted: it would answer 404 while still on screen.
  const row = useQuery({
    queryKey: [spec.path, 'get', key],
    queryFn: () => spec.get(key),
    enabled: !(remove.isPending || remove.isSuccess),
  });
  if (row.isPending) return <Loading />;
  if (row.error)
    return (
      <>
        <PageHeader title={key} />
        <ErrorBanner error={row.error} />
      </>
    );
  const data = row.data;
  return (
    <>
      <PageHeader
        title={spec.title(data)}
        actions={
          <>
            {spec.update && (
              <Link className="ui-button" to={`/${spec.path}/${encodeURIComponent(key)}/edit`}>
                Edit
              </Link>
            )}
            {spec.remove && (
              <ConfirmButton
                label={spec.removeLabel ?? 'Delete'}
                question={
                  spec.removeQuestion?.(data) ??
                  `Delete ${spec.singular} ${spec.title(data)}? This cannot be undone.`
                }
                onConfirm={() => remove.mutate()}
                pending={remove.isPending}
              />
            )}
          </>
        }
      >
        <Link to={`/${spec.path}`}>All {spec.plural}</Link>
      </PageHeader>
      <ErrorBanner error={remove.error} />
      <Card>
        <Details items={spec.details(data)} />
      </Card>
      {spec.more?.(data)}
    </>
  );
}

function FormPage<T>({ spec, editing }: { spec: ResourceSpec<T>; editing: boolean }) {
  const key = useParams().key;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const row = useQuery({
    queryKey: [spec.path, 'get', key],
    queryFn: () => spec.get(key!),
    enabled: editing,
  });
  if (editing && row.isPending) return <Loading />;
  if (editing && row.error) return <ErrorBanner error={row.error} />;
  const title = editing ? `Edit ${spec.title(row.data as T)}` : `New ${spec.singular}`;
  return (
    <>
      <PageHeader title={title} />
      <ResourceForm
        fields={spec.fields ?? []}
        initial={editing ? (row.data as Record<string, unknown>) : undefined}
        editing={editing}
        submitLabel={editing ? 'Save' : 'Create'}
        save={(body) => (editing ? spec.update!(key!, body) : spec.create!(body))}
        onDone={async (saved) => {
          await queryClient.invalidateQueries({ queryKey: [spec.path] });
          await navigate(`/${spec.path}/${encodeURIComponent(spec.key(saved as T))}`);
        }}
      />
    </>
  );
}

/** The routes of a resource's pages, to put inside the app's <Routes>. */
export function resourceRoutes<T>(spec: ResourceSpec<T>) {
  return [
    <Route key={`${spec.path}-list`} path={spec.path} element={<ListPage spec={spec} />} />,
    spec.create && (
      <Route
        key={`${spec.path}-new`}
        path={`${spec.path}/new`}
        element={<FormPage spec={spec} editing={false} />}
      />
    ),
    <Route
      key={`${spec.path}-detail`}
      path={`${spec.path}/:key`}
      element={<DetailPage spec={spec} />}
    />,
    spec.update && (
      <Route
        key={`${spec.path}-edit`}
        path={`${spec.path}/:key/edit`}
        element={<FormPage spec={spec} editing />}
      />
    ),
  ];
}
