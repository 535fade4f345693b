import { useState } from 'react';
import {
  Allowed,
  api,
  Card,
  platformFetch,
  Form,
  PageHeader,
  SelectField,
  TextField,
  useMutation,
  useNavigate,
  useQuery,
  useQueryClient,
  type DataOf,
} from '@platform/ui';

type Job = DataOf<'billing.getSyncJob'>;

const today = () => new Date().toISOString().slice(0, 10);
const monthStart = () => `${today().slice(0, 8)}01`;

/**
 * POST /sync/focus with the file itself as a text/csv body (the typed client sends JSON only),
 * answered with the sync job or the API's error envelope.
 */
async function uploadFocus(file: File | null, from: string, to: string): Promise<Job> {
  if (!file) throw new Error('Choose a FOCUS CSV file to upload (file)');
  const response = await platformFetch(
    `/api/v1/billing/sync/focus?${new URLSearchParams({ from, to })}`,
    { method: 'POST', headers: { 'content-type': 'text/csv' }, body: file },
  );
  return ((await response.json()) as { data: Job }).data;
}

/** Both forms end on the job's page, which follows it until it completes or fails. */
function useShowJob() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return async (job: Job) => {
    await queryClient.invalidateQueries({ queryKey: ['jobs'] });
    await navigate(`/jobs/${job.id}`);
  };
}

function StartSync() {
  const adapters = useQuery({
    queryKey: ['adapters'],
    queryFn: () => api.billing.listSyncAdapters(),
  });
  const [values, setValues] = useState({
    provider: '',
    from: monthStart(),
    to: today(),
    token: '',
    projectId: '',
    csv: '',
  });
  const set = (name: keyof typeof values) => (value: string) =>
    setValues((v) => ({ ...v, [name]: value }));
  const provider = values.provider || adapters.data?.[0]?.name || '';
  const adapter = adapters.data?.find((a) => a.name === provider);
  const start = useMutation({
    mutationFn: () =>
      api.billing.startSync({
        body: {
          provider,
          from: values.from,
          to: values.to,
          ...(adapter?.needsToken ? { token: values.token } : { csv: values.csv }),
          ...(values.projectId ? { projectId: values.projectId } : {}),
        },
      }),
    onSuccess: useShowJob(),
  });
  return (
    <Card title="Sync from a provider">
      <Form
        label="Sync from a provider"
        onSubmit={() => start.mutate()}
        error={start.error ?? adapters.error}
        pending={start.isPending}
        submitLabel="Start sync"
      >
        <SelectField
          label="Provider"
          name="provider"
          value={provider}
          onChange={set('provider')}
          hint={adapter?.description}
          options={(adapters.data ?? []).map((a) => a.name)}
        />
        <TextField
          label="From"
          name="from"
          type="date"
          value={values.from}
          onChange={set('from')}
        />
        <TextField label="To" name="to" type="date" value={values.to} onChange={set('to')} />
        {adapter?.needsToken ? (
          <>
            <TextField
              label="Token"
              name="token"
              type="password"
              hint="Used for this sync only: never stored"
              value={values.token}
              onChange={set('token')}
            />
            <TextField
              label="Project"
              name="projectId"
              hint="Only this project or workspace (optional)"
              value={values.projectId}
              onChange={set('projectId')}
            />
          </>
        ) : (
          <TextField
            label="CSV"
            name="csv"
            multiline
            rows={6}
            hint="A small FOCUS file pasted as text; upload larger ones below"
            value={values.csv}
            onChange={set('csv')}
          />
        )}
      </Form>
    </Card>
  );
}

function UploadFocus() {
  const [file, setFile] = useState<File | null>(null);
  const [range, setRange] = useState({ from: monthStart(), to: today() });
  const upload = useMutation({
    mutationFn: () => uploadFocus(file, range.from, range.to),
    onSuccess: useShowJob(),
  });
  return (
    <Card title="Upload a FOCUS file">
      <Form
        label="Upload a FOCUS file"
        onSubmit={() => upload.mutate()}
        error={upload.error}
        pending={upload.isPending}
        submitLabel="Upload"
      >
        <div className="ui-field">
          <label htmlFor="focus-file">FOCUS CSV file</label>
          <input
            id="focus-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <small className="ui-muted">
            Any size: read as it arrives. The file is the truth for its window.
          </small>
        </div>
        <TextField
          label="From"
          name="from"
          type="date"
          value={range.from}
          onChange={(from) => setRange((r) => ({ ...r, from }))}
        />
        <TextField
          label="To"
          name="to"
          type="date"
          value={range.to}
          onChange={(to) => setRange((r) => ({ ...r, to }))}
        />
      </Form>
    </Card>
  );
}

/** Start a sync from a provider's cost API, or upload a FOCUS export. */
export function SyncPage() {
  return (
    <>
      <PageHeader title="Start a sync">
        A sync upserts items by provider reference: running it again updates them.
      </PageHeader>
      <Allowed requires={['billing', 'startSync']} what="start a sync or upload a FOCUS file">
        <div className="billing-charts">
          <StartSync />
          <UploadFocus />
        </div>
      </Allowed>
    </>
  );
}
