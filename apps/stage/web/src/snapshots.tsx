import {
  api,
  Card,
  ConfirmButton,
  DataTable,
  ErrorBanner,
  Form,
  formatDate,
  formatNumber,
  Loading,
  Notice,
  TextField,
  useMutation,
  useQuery,
  useQueryClient,
  type Column,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';

type Snapshot = DataOf<'stage.getSnapshots'>[number];

/** A session's snapshots: take one (every current file at its version), restore one. */
export function Snapshots({
  id,
  writable,
  onRestored,
}: {
  id: string;
  /** Whether the person may take and restore snapshots (else they are only listed). */
  writable: boolean;
  onRestored(): void;
}) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const snapshots = useQuery({
    queryKey: ['session', id, 'snapshots'],
    queryFn: () => api.stage.getSnapshots({ path: { id }, query: { limit: 50 } }),
  });
  const create = useMutation({
    mutationFn: () =>
      api.stage.createSnapshot({ path: { id }, body: label.trim() ? { label: label.trim() } : {} }),
    onSuccess: async () => {
      setLabel('');
      await queryClient.invalidateQueries({ queryKey: ['session', id, 'snapshots'] });
    },
  });
  const restore = useMutation({
    mutationFn: (snapshotId: string) => api.stage.restoreSnapshot({ path: { id, snapshotId } }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['session', id] });
      onRestored();
    },
  });
  const restoreColumn: Column<Snapshot> = {
    header: 'Actions',
    cell: (s) => (
      <ConfirmButton
        label={`Restore ${s.label ?? s.id}`}
        confirmLabel="Restore"
        danger={false}
        question={`Restore snapshot ${s.label ?? s.id}? Files that differ are written back as new versions and files it lacks are deleted.`}
        onConfirm={() => restore.mutate(s.id)}
        pending={restore.isPending && restore.variables === s.id}
      />
    ),
  };
  return (
    <Card title="Snapshots">
      {writable && (
        <Form
          label="Take a snapshot"
          submitLabel="Take snapshot"
          onSubmit={() => create.mutate()}
          error={create.error}
          pending={create.isPending}
        >
          <TextField label="Snapshot label" name="label" value={label} onChange={setLabel} />
        </Form>
      )}
      <ErrorBanner error={restore.error} />
      {restore.data && (
        <Notice>
          Restored {restore.data.snapshot.label ?? restore.data.snapshot.id}: {restore.data.written}{' '}
          written, {restore.data.deleted} deleted.
        </Notice>
      )}
      <ErrorBanner error={snapshots.error} />
      {snapshots.isPending ? (
        <Loading />
      ) : (
        <DataTable
          rows={snapshots.data ?? []}
          rowKey={(s) => s.id}
          caption="Snapshots, newest first"
          empty="No snapshot yet."
          columns={[
            { header: 'Label', cell: (s) => s.label ?? <code>{s.id}</code> },
            { header: 'Taken', cell: (s) => formatDate(s.createdAt) },
            { header: 'Files', cell: (s) => s.fileCount, numeric: true },
            { header: 'Bytes', cell: (s) => formatNumber(s.totalBytes), numeric: true },
            ...(writable ? [restoreColumn] : []),
          ]}
        />
      )}
    </Card>
  );
}
