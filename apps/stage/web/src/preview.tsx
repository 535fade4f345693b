import { Card, Empty, FilterSelect, formatDate, type DataOf } from '@platform/ui';

type Render = DataOf<'stage.getStatus'>['render'];

const RENDERABLE = /\.(tsx?|jsx?|mjs)$/;

/** The file to render: the last entry, else a main or index file, else the first script. */
export function defaultEntry(render: Render, paths: readonly string[]): string | null {
  if (render.entry && paths.includes(render.entry)) return render.entry;
  const scripts = paths.filter((p) => RENDERABLE.test(p) && !p.startsWith('/app/api/'));
  return (
    scripts.find((p) => /\/main\.[jt]sx?$/.test(p)) ??
    scripts.find((p) => /\/index\.[jt]sx?$/.test(p)) ??
    scripts[0] ??
    null
  );
}

/**
 * The live preview: the session's last good render, framed from its own origin (never the
 * platform's: it keeps its own cookies and may call its app's backend there), loaded again
 * whenever a render succeeds; which entry to render, and a render button.
 */
export function Preview({
  origin,
  render,
  paths,
  entry,
  onEntry,
  onRender,
  rendering,
  reloads,
}: {
  /** The preview's own origin (the session's status says it). */
  origin: string;
  render: Render;
  paths: readonly string[];
  entry: string | null;
  onEntry(entry: string): void;
  /** Renders the entry now; absent for whom may not (the button is not shown). */
  onRender?(): void;
  rendering: boolean;
  reloads: number;
}) {
  const scripts = paths.filter((p) => RENDERABLE.test(p));
  const url = `${origin}/`;
  return (
    <Card
      title="Preview"
      actions={
        <>
          <FilterSelect
            label="Entry"
            value={entry ?? ''}
            onChange={onEntry}
            any={scripts.length === 0 ? 'No script to render' : null}
            options={scripts}
          />
          {onRender && (
            <button
              type="button"
              className="ui-button"
              disabled={!entry || rendering}
              onClick={onRender}
            >
              {rendering ? 'Rendering…' : 'Render'}
            </button>
          )}
        </>
      }
    >
      {render.renderedAt ? (
        <>
          <iframe
            key={`${render.version}-${reloads}`}
            className="stage-preview"
            title="Preview"
            src={url}
            // Its own origin (allow-same-origin keeps that one, not the platform's): scripts,
            // forms, dialogs and popups; no top navigation of the platform's page.
            sandbox="allow-scripts allow-forms allow-modals allow-popups allow-same-origin"
          />
          <p className="ui-muted">
            Version {render.version} of {render.entry}, rendered {formatDate(render.renderedAt)}
            {' · '}
            <a href={url} target="_blank" rel="noreferrer">
              Open in a new tab
            </a>
          </p>
        </>
      ) : (
        <Empty>Nothing rendered yet: save a script, or choose an entry and render it.</Empty>
      )}
    </Card>
  );
}
