import {
  api,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  Loading,
  TextField,
  useMutation,
  useQuery,
  useCan,
  useQueryClient,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';
import { RecordLink } from './refs';

type Service = DataOf<'catalog.getService'>;
type Node = DataOf<'catalog.getDependencyGraph'>['nodes'][number];

/** The services one step away from `id`, down (what it depends on) or up (what depends on it). */
export function useNeighbours(id: string, direction: 'down' | 'up') {
  return useQuery({
    queryKey: ['deps', 'neighbours', id, direction],
    queryFn: () =>
      api.catalog.getDependencyGraph({ path: { idOrName: id }, query: { direction, depth: 1 } }),
    select: (graph) => graph.nodes.filter((n) => n.depth === 1),
  });
}

/** After a change of dependencies: every graph and service shown may have changed. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['deps'] }),
      queryClient.invalidateQueries({ queryKey: ['services'] }),
    ]);
}

function AddDependency({ service }: { service: Service }) {
  const [dependsOn, setDependsOn] = useState('');
  const refresh = useRefresh();
  const add = useMutation({
    mutationFn: () =>
      api.catalog.addDependency({ path: { idOrName: service.id }, body: { dependsOn } }),
    onSuccess: async () => {
      setDependsOn('');
      await refresh();
    },
  });
  return (
    <Form
      label={`Add a dependency to ${service.name}`}
      onSubmit={() => add.mutate()}
      error={add.error}
      pending={add.isPending}
      submitLabel="Add dependency"
    >
      <TextField
        label="Depends on"
        name="dependsOn"
        hint="The name or id of the service it depends on"
        required
        value={dependsOn}
        onChange={setDependsOn}
      />
    </Form>
  );
}

function RemoveDependency({ service, target }: { service: Service; target: Node }) {
  const refresh = useRefresh();
  const remove = useMutation({
    mutationFn: () =>
      api.catalog.removeDependency({ path: { idOrName: service.id, dependsOn: target.id } }),
    onSuccess: refresh,
  });
  return (
    <>
      <ConfirmButton
        label={`Remove ${target.name}`}
        question={`Stop ${service.name} depending on ${target.name}?`}
        confirmLabel="Remove"
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
      />
      <ErrorBanner error={remove.error} />
    </>
  );
}

/** A service's dependencies (to add and remove) and its dependents, each a link. */
export function Dependencies({ service }: { service: Service }) {
  const down = useNeighbours(service.id, 'down');
  const up = useNeighbours(service.id, 'up');
  const can = useCan();
  const mayAdd = can('catalog', 'addDependency', service);
  const mayRemove = can('catalog', 'removeDependency', service);
  return (
    <div className="ui-grid catalog-deps">
      <Card title="Depends on">
        <ErrorBanner error={down.error} />
        {down.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={down.data ?? []}
            rowKey={(n) => n.id}
            empty={`${service.name} depends on no service.`}
            columns={[
              {
                header: 'Service',
                cell: (n) => <RecordLink to="services" id={n.id} name={n.name} />,
              },
              ...(mayRemove
                ? [
                    {
                      header: 'Actions',
                      cell: (n: Node) => <RemoveDependency service={service} target={n} />,
                    },
                  ]
                : []),
            ]}
          />
        )}
        {mayAdd && <AddDependency service={service} />}
      </Card>
      <Card title="Used by">
        <ErrorBanner error={up.error} />
        {up.isPending ? (
          <Loading />
        ) : (
          <DataTable
            rows={up.data ?? []}
            rowKey={(n) => n.id}
            empty={`No service depends on ${service.name}.`}
            columns={[
              {
                header: 'Service',
                cell: (n) => <RecordLink to="services" id={n.id} name={n.name} />,
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
