import { useState } from 'react';
import {
  Allowed,
  api,
  Card,
  ErrorBanner,
  PageHeader,
  SelectField,
  useMutation,
  useQueryClient,
  type BodyOf,
  type DataOf,
} from '@platform/ui';

type Result = DataOf<'palette.importTokens'>;
type Missing = 'keep' | 'delete';

/**
 * The body of POST /palette/import from the files chosen: a resolver with the files it names
 * (by their names: choose them together), one token file, or several as the sources of one set.
 */
async function bodyOf(files: File[]): Promise<Record<string, unknown>> {
  if (files.length === 0)
    throw new Error('Choose a token file or a resolver with its files (file)');
  const docs: Array<{ name: string; doc: unknown }> = [];
  for (const file of files) {
    try {
      docs.push({ name: file.name, doc: JSON.parse(await file.text()) as unknown });
    } catch {
      throw new Error(`${file.name} is not valid JSON`);
    }
  }
  const isResolver = (d: unknown) =>
    !!d &&
    typeof d === 'object' &&
    Array.isArray((d as { resolutionOrder?: unknown }).resolutionOrder);
  const resolver = docs.find((d) => isResolver(d.doc));
  const byName = Object.fromEntries(docs.map((d) => [d.name, d.doc]));
  if (resolver) {
    // A resolver names its files by path (base/color.json): matched here by their last segment.
    const documents: Record<string, unknown> = {};
    JSON.stringify(resolver.doc, (key, value: unknown) => {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        const file = byName[value.split('/').pop()!];
        if (file !== undefined) documents[value] = file;
      }
      return value;
    });
    return { resolver: resolver.doc, documents };
  }
  const first = docs[0].doc as Record<string, unknown>;
  if (docs.length === 1) return first && 'resolver' in first ? first : { document: first };
  return {
    resolver: {
      version: '2025.10',
      sets: { files: { sources: docs.map((d) => ({ $ref: d.name })) } },
      resolutionOrder: [{ $ref: '#/sets/files' }],
    },
    documents: byName,
  };
}

function Outcome({ result }: { result: Result }) {
  const changed = result.tokens.filter((t) => t.action !== 'unchanged');
  return (
    <Card title={result.dryRun ? 'What the import would do' : 'Imported'}>
      <p role="status">
        {result.dryRun ? 'Would be: ' : ''}
        {result.created} created, {result.updated} updated, {result.unchanged} unchanged,{' '}
        {result.deleted} deleted
        {result.modes.length > 0 && `; modes: ${result.modes.join(', ')}`}
      </p>
      {changed.length > 0 && (
        <table className="ui-table" aria-label="Changes">
          <thead>
            <tr>
              <th>Token</th>
              <th>Change</th>
              <th>Category</th>
            </tr>
          </thead>
          <tbody>
            {changed.map((t) => (
              <tr key={t.path}>
                <td>
                  <code>{t.path}</code>
                </td>
                <td>{t.action}</td>
                <td>{t.category ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result.ignored.length > 0 && (
        <details>
          <summary>Not kept ({result.ignored.length})</summary>
          <ul>
            {result.ignored.map((i) => (
              <li key={i.path}>
                <code>{i.path}</code>: {i.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </Card>
  );
}

/** Import DTCG 2025.10 files: a dry run shows what would change, then the import writes it all. */
export function ImportPage() {
  const [files, setFiles] = useState<File[]>([]);
  const [missing, setMissing] = useState<Missing>('keep');
  const [result, setResult] = useState<Result | null>(null);
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: async (dryRun: boolean) =>
      api.palette.importTokens({
        body: (await bodyOf(files)) as BodyOf<'palette.importTokens'>,
        query: { dryRun, missing },
      }),
    onSuccess: async (data) => {
      setResult(data);
      if (!data.dryRun) await queryClient.invalidateQueries({ queryKey: ['tokens'] });
    },
  });
  return (
    <>
      <PageHeader title="Import tokens">
        DTCG 2025.10 token files or a resolver with its files. Everything is checked first: a
        refusal lists every problem and writes nothing.
      </PageHeader>
      <Allowed requires={['palette', 'importTokens']} what="import tokens">
        <Card title="Files">
          <div className="ui-field">
            <label htmlFor="token-files">Token files, or a resolver and the files it names</label>
            <input
              id="token-files"
              name="files"
              type="file"
              multiple
              accept=".json,application/json"
              onChange={(e) => {
                setFiles(Array.from(e.target.files ?? []));
                setResult(null);
              }}
            />
          </div>
          <SelectField
            label="Tokens not in the files"
            name="missing"
            value={missing}
            options={[
              { value: 'keep', label: 'Keep them' },
              { value: 'delete', label: 'Delete them' },
            ]}
            onChange={(v) => setMissing(v as Missing)}
          />
          <div className="ui-actions">
            <button
              type="button"
              className="ui-button"
              disabled={run.isPending}
              onClick={() => run.mutate(true)}
            >
              Dry run
            </button>
            <button
              type="button"
              className="ui-button ui-button-primary"
              disabled={run.isPending || !result?.dryRun}
              onClick={() => run.mutate(false)}
            >
              Import
            </button>
          </div>
          <ErrorBanner error={run.error} />
        </Card>
        {result && <Outcome result={result} />}
      </Allowed>
    </>
  );
}
