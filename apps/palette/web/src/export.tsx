import {
  api,
  ErrorBanner,
  Loading,
  PageHeader,
  useQuery,
  useSearchParams,
  type DataOf,
} from '@platform/ui';
import { useState } from 'react';

type Format = DataOf<'palette.export'>['format'];

const FORMATS: { value: Format; label: string; hint: string }[] = [
  { value: 'css', label: 'CSS', hint: 'Custom properties, dark values under data-theme' },
  { value: 'json', label: 'JSON (DTCG)', hint: 'W3C design tokens, nested by group' },
  { value: 'dtcg', label: 'DTCG 2025.10', hint: 'What an import reads: with modes, a resolver' },
  { value: 'tailwind', label: 'Tailwind 3', hint: 'A preset: theme.extend' },
  { value: 'tailwind4', label: 'Tailwind 4', hint: 'An @theme block' },
];

/** Copies text to the clipboard and says whether it worked. */
function CopyButton({ text }: { text: string }) {
  const [said, setSaid] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied');
    } catch {
      setSaid('The browser did not allow copying: select the text instead');
    }
  };
  return (
    <div className="ui-actions">
      <button type="button" className="ui-button" onClick={copy}>
        Copy
      </button>
      <span role="status" className="ui-muted">
        {said}
      </span>
    </div>
  );
}

/** Every token in a format real tools read, to copy into a project. */
export function ExportPage() {
  const [params, setParams] = useSearchParams();
  const format = (params.get('format') ?? 'css') as Format;
  const output = useQuery({
    queryKey: ['tokens', 'export', format],
    queryFn: () => api.palette.export({ query: { format } }),
  });
  return (
    <>
      <PageHeader title="Export">{FORMATS.find((f) => f.value === format)?.hint}</PageHeader>
      <div className="ui-actions" role="group" aria-label="Format">
        {FORMATS.map((f) => (
          <button
            key={f.value}
            type="button"
            className={`ui-button${f.value === format ? ' ui-button-primary' : ''}`}
            aria-pressed={f.value === format}
            onClick={() => setParams({ format: f.value }, { replace: true })}
          >
            {f.label}
          </button>
        ))}
      </div>
      <ErrorBanner error={output.error} />
      {output.isPending ? (
        <Loading />
      ) : (
        output.data && (
          <>
            <CopyButton text={output.data.output} />
            <pre className="ui-json pl-code" tabIndex={0} aria-label={`The ${format} export`}>
              <code>{output.data.output}</code>
            </pre>
          </>
        )
      )}
    </>
  );
}
