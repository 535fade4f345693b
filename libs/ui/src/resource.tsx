import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Route, useNavigate, useParams } from 'react-router';
import {
  useCan,
  useMe,
  whoMay,
  type AccessOperation,
  type AccessService,
  type Owned,
} from './access';
import { ConfirmButton } from './dialog';
import { Card, Details, Empty, ErrorBanner, Loading } from './feedback';
import { ResourceForm, type FieldSpec } from './resource-form';
import { QueryList } from './query-list';
import { PageHeader } from './shell';
import type { Column } from './table';

export type { FieldSpec };

export interface FilterSpec {
  name: string;
  label: string;
  options?: readonly string[];
  type?: 'search' | 'text' | 'date' | 'datetime-local' | 'number';
  /** A select disabled, and not sent, until the filter of this name has a value. */
  requires?: string;
}

type Doing = 'list' | 'get' | 'create' | 'update' | 'remove';

/**
 * The operations behind a resource's pages (`{ service: 'catalog', create: 'createService', ... }`):
 * what the person may not do is not offered (update and remove judged against the record).
 */
export type ResourceAccess<T> = {
  [S in AccessService]: { service: S } & { [D in Doing]?: AccessOperation<S> };
}[AccessService] & {
  /** Who owns a row, when not its own `createdBy` and `team` (a catalog owner is its own team). */
  ownership?(row: T): Owned;
};

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
  /** Who may do what: without it, every page and button is offered (the server still decides). */
  access?: ResourceAccess<T>;
}

/** Whether the person may list, create, update or remove (a row of) the resource. */
function useAllowed<T>(spec: ResourceSpec<T>) {
  const can = useCan() as (service: string, operation: string, record?: Owned) => boolean;
  const access = spec.access;
  return (doing: Doing, row?: T) => {
    const operation = access?.[doing];
    if (!access || !operation) return true;
    const record = row === undefined ? undefined : (access.ownership?.(row) ?? (row as Owned));
    return can(access.service, operation, record);
  };
}

/** What the page says instead of a list or a form the person may not use. */
function Denied<T>({ spec, doing, what }: { spec: ResourceSpec<T>; doing: Doing; what: string }) {
  const { service, [doing]: operation } = spec.access ?? {};
  const who = service && operation ? whoMay(service, operation as never) : 'others';
  return <Empty>{`Only ${who} may ${what}.`}</Empty>;
}

/** The creator and team of a record that has them, unless its details already say. */
function ownerDetails(row: unknown, items: [string, ReactNode][]): [string, ReactNode][] {
  const owned = row as Owned;
  if (!('createdBy' in owned) || items.some(([label]) => label === 'Created by')) return items;
  return [...items, ['Created by', owned.createdBy], ['Team', owned.team]];
}

function ListPage<T>({ spec }: { spec: ResourceSpec<T> }) {
  const may = useAllowed(spec);
  const me = useMe();
  return (
    <>
      <PageHeader
        title={spec.plural[0].toUpperCase() + spec.plural.slice(1)}
        actions={
          <>
            {spec.actions}
            {spec.create && may('create') && (
              <Link className="ui-button ui-button-primary" to={`/${spec.path}/new`}>
                New {spec.singular}
              </Link>
            )}
          </>
        }
      >
        {spec.description}
      </PageHeader>
      {me.isPending ? (
        <Loading />
      ) : may('list') ? (
        <QueryList
          queryKey={[spec.path, 'list']}
          list={spec.list}
          columns={spec.columns}
          rowKey={spec.key}
          href={(r) => `/${spec.path}/${encodeURIComponent(spec.key(r))}`}
          filters={spec.filters}
          empty={`No ${spec.plural} match.`}
        />
      ) : (
        <Denied spec={spec} doing="list" what={`see the ${spec.plural}`} />
      )}
    </>
  );
}

function DetailPage<T>({ spec }: { spec: ResourceSpec<T> }) {
  const key = useParams().key!;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const may = useAllowed(spec);
  const me = useMe();
  const remove = useMutation({
    mutationFn: () => spec.remove!(key),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: [spec.path, 'get', key] });
      await navigate(`/${spec.path}`);
      await queryClient.invalidateQueries({ queryKey: [spec.path, 'list'] });
    },
  });
  // Not fetched again once it is being deleted: it would answer 404 while still on screen.
  const readable = !me.isPending && may('get');
  const row = useQuery({
    queryKey: [spec.path, 'get', key],
    queryFn: () => spec.get(key),
    enabled: readable && !(remove.isPending || remove.isSuccess),
  });
  if (me.isPending) return <Loading />;
  if (!readable)
    return (
      <>
        <PageHeader title={key} />
        <Denied spec={spec} doing="get" what={`see the ${spec.plural}`} />
      </>
    );
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
            {spec.update && may('update', data) && (
              <Link className="ui-button" to={`/${spec.path}/${encodeURIComponent(key)}/edit`}>
                Edit
              </Link>
            )}
            {spec.remove && may('remove', data) && (
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
        <Details items={ownerDetails(data, spec.details(data))} />
      </Card>
      {spec.more?.(data)}
    </>
  );
}

function FormPage<T>({ spec, editing }: { spec: ResourceSpec<T>; editing: boolean }) {
  const key = useParams().key;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const may = useAllowed(spec);
  const me = useMe();
  const row = useQuery({
    queryKey: [spec.path, 'get', key],
    queryFn: () => spec.get(key!),
    enabled: editing,
  });
  if ((editing && row.isPending) || me.isPending) return <Loading />;
  if (editing && row.error) return <ErrorBanner error={row.error} />;
  const title = editing ? `Edit ${spec.title(row.data as T)}` : `New ${spec.singular}`;
  const doing = editing ? 'update' : 'create';
  if (!may(doing, row.data))
    return (
      <>
        <PageHeader title={title} />
        <Denied
          spec={spec}
          doing={doing}
          what={editing ? `change this ${spec.singular}` : `create ${spec.plural}`}
        />
      </>
    );
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
