import {
  api,
  Card,
  ConfirmButton,
  ErrorBanner,
  formatDate,
  Link,
  Loading,
  PageHeader,
  PlatformError,
  useCan,
  useMutation,
  useParams,
  useQuery,
  useQueryClient,
  useSearchParams,
} from '@platform/ui';
import { useEffect, useMemo, useState } from 'react';
import { BinaryFile } from './binary-file';
import { CodeEditor, type ErrorAt } from './editor';
import { FileTree } from './file-tree';
import { NewFile } from './new-file';
import { defaultEntry, Preview } from './preview';
import { rememberSession } from './recent';
import { Snapshots } from './snapshots';

/** A render whose build failed answers 400: that is the render's state, not the save's error. */
async function renderQuietly(id: string, entry: string) {
  try {
    await api.stage.triggerRender({ path: { id }, body: { entry } });
  } catch (error) {
    if (!(error instanceof PlatformError && error.status === 400)) throw error;
  }
}

/** One session: its files in a tree, the editor, the live preview, render errors, snapshots. */
export function SessionPage() {
  const id = useParams().id!;
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [chosenEntry, setEntry] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const can = useCan();
  const status = useQuery({
    queryKey: ['session', id, 'status'],
    queryFn: () => api.stage.getStatus({ path: { id } }),
  });
  const files = useQuery({
    queryKey: ['session', id, 'files'],
    queryFn: () => api.stage.getAllFiles({ path: { id }, query: { content: true } }),
  });
  useEffect(() => {
    if (status.isSuccess) rememberSession(id);
  }, [id, status.isSuccess]);

  const paths = useMemo(() => (files.data ?? []).map((f) => f.path), [files.data]);
  const selected = params.get('file') ?? (status.data?.render.entry || paths[0]) ?? null;
  const file = files.data?.find((f) => f.path === selected);
  const entry = chosenEntry ?? (status.data ? defaultEntry(status.data.render, paths) : null);
  const renderError = status.data?.render.error ?? null;
  const errorHere = useMemo<ErrorAt | null>(
    () =>
      renderError && renderError.file === selected && renderError.line
        ? { message: renderError.message, line: renderError.line, column: renderError.column }
        : null,
    [renderError, selected],
  );

  const select = (path: string) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('file', path);
      return next;
    });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['session', id] });
  const render = useMutation({
    mutationFn: async (what: string) => renderQuietly(id, what),
    onSettled: async () => {
      await refresh();
      setReloads((n) => n + 1);
    },
  });
  const save = useMutation({
    mutationFn: async ({ path, content }: { path: string; content: string }) => {
      await api.stage.pushFiles({ path: { id }, body: { files: { [path]: content } } });
      if (entry) await renderQuietly(id, entry);
      return { path, content };
    },
    onSuccess: async ({ path, content }) => {
      // The saved file first, then the draft goes: the editor never shows the older text.
      await refresh();
      setDrafts(({ [path]: draft, ...rest }) =>
        draft === content ? rest : { ...rest, [path]: draft },
      );
      setReloads((n) => n + 1);
    },
  });
  const remove = useMutation({
    mutationFn: (path: string) => api.stage.deleteFile({ path: { id, path: path.slice(1) } }),
    onSuccess: async (_, path) => {
      setDrafts(({ [path]: _draft, ...rest }) => rest);
      setParams(new URLSearchParams());
      await refresh();
    },
  });

  if (status.isPending || files.isPending) return <Loading />;
  if (status.error || files.error)
    return (
      <>
        <PageHeader title={`Session ${id}`}>
          <Link to="/sessions">All sessions</Link>
        </PageHeader>
        <ErrorBanner error={status.error ?? files.error} />
      </>
    );
  const { session, render: state } = status.data;
  // Its creator, collaborators and team change it (members); others who may read it only look.
  const writable = can('stage', 'pushFiles', session);
  // An image, a font: its bytes (base64 in `content`), shown as such, never in the editor.
  const binary = (file as { binary?: boolean } | undefined)?.binary === true;
  const draft = selected ? drafts[selected] : undefined;
  const content = draft ?? file?.content ?? '';
  const saveSelected = () => selected && save.mutate({ path: selected, content });
  return (
    <>
      <PageHeader title={`Session ${id}`}>
        Created {formatDate(session.createdAt)}, last used {formatDate(session.lastAccessedAt)}
        {session.appSid && (
          <>
            {' · '}studio session of app{' '}
            <Link to={`/apps/${session.appSid}`}>{session.appSid}</Link>
          </>
        )}
        {session.createdBy && ` · by ${session.createdBy}`}
        {session.team && ` · team ${session.team}`}
        {!writable && ' · read only'}
      </PageHeader>
      {renderError && (
        <div className="ui-banner ui-banner-danger" role="alert">
          <strong>Render of {state.entry} failed</strong>
          {renderError.file &&
            ` at ${renderError.file}:${renderError.line}:${renderError.column}`}:{' '}
          {renderError.message}{' '}
          {renderError.file && renderError.file !== selected && (
            <button type="button" className="ui-button" onClick={() => select(renderError.file!)}>
              Open {renderError.file} at line {renderError.line}
            </button>
          )}
        </div>
      )}
      <div className="stage-workspace">
        <Card title="Files">
          <FileTree
            paths={paths}
            selected={selected}
            onSelect={select}
            dirty={new Set(Object.keys(drafts))}
          />
          {writable && <NewFile id={id} paths={paths} onCreated={select} />}
        </Card>
        <Card
          title={selected ?? 'No file open'}
          actions={
            selected &&
            writable && (
              <>
                {!binary && (
                  <button
                    type="button"
                    className="ui-button ui-button-primary"
                    disabled={save.isPending}
                    onClick={saveSelected}
                  >
                    {save.isPending ? 'Saving…' : 'Save'}
                  </button>
                )}
                <ConfirmButton
                  label="Delete file"
                  question={`Delete ${selected}? The deletion is kept in its history.`}
                  onConfirm={() => remove.mutate(selected)}
                  pending={remove.isPending}
                />
              </>
            )
          }
        >
          <ErrorBanner error={save.error ?? remove.error} />
          {selected && file && binary ? (
            <BinaryFile path={selected} size={file.size} content={file.content} />
          ) : selected && file ? (
            <CodeEditor
              key={selected}
              path={selected}
              initial={content}
              stored={draft === undefined ? file.content : undefined}
              error={errorHere}
              onChange={(text) => setDrafts((d) => ({ ...d, [selected]: text }))}
              onSave={saveSelected}
            />
          ) : (
            <p className="ui-empty">Choose a file, or add one.</p>
          )}
          {file && (
            <p className="ui-muted">
              Version {file.version}
              {draft !== undefined && draft !== file.content ? ' · unsaved changes' : ''}
            </p>
          )}
        </Card>
        <Preview
          origin={status.data.origin}
          render={state}
          paths={paths}
          entry={entry}
          onEntry={setEntry}
          onRender={writable ? () => entry && render.mutate(entry) : undefined}
          rendering={render.isPending}
          reloads={reloads}
        />
      </div>
      <Snapshots
        id={id}
        writable={writable}
        onRestored={() => {
          setDrafts({});
          if (entry) render.mutate(entry);
        }}
      />
    </>
  );
}
