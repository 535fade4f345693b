import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorSelection, EditorState, Transaction, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import { useEffect, useRef, useState } from 'react';

/** A render error where it happened: line and column from 1. */
export interface ErrorAt {
  message: string;
  line: number;
  column: number | null;
}

/** The language of a file, by its extension. */
function language(path: string): Extension {
  const ext = /\.([a-z]+)$/i.exec(path)?.[1]?.toLowerCase();
  if (ext === 'ts' || ext === 'mts' || ext === 'cts') return javascript({ typescript: true });
  if (ext === 'tsx') return javascript({ typescript: true, jsx: true });
  if (ext === 'js' || ext === 'jsx' || ext === 'mjs' || ext === 'cjs')
    return javascript({ jsx: true });
  if (ext === 'html' || ext === 'htm') return html();
  if (ext === 'css') return css();
  if (ext === 'json') return json();
  return [];
}

/** Token colours from the design tokens, so light and dark both read well. */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.operatorKeyword, tags.modifier], color: 'var(--chart-4)' },
  { tag: [tags.string, tags.special(tags.string), tags.regexp], color: 'var(--success)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--chart-3)' },
  { tag: [tags.comment, tags.meta], color: 'var(--text-muted)', fontStyle: 'italic' },
  { tag: [tags.typeName, tags.className, tags.tagName], color: 'var(--accent)' },
  { tag: [tags.propertyName, tags.attributeName], color: 'var(--warning)' },
  { tag: tags.invalid, color: 'var(--danger)' },
]);

const theme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--surface-raised)',
    color: 'var(--text)',
    border: 'var(--border-width, 1px) solid var(--border)',
    borderRadius: 'var(--radius-sm)',
    fontSize: 'var(--text-sm)',
    height: '100%',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': {
    backgroundColor: 'var(--surface)',
    color: 'var(--text-muted)',
    borderRight: 'var(--border-width, 1px) solid var(--border)',
  },
  '.cm-activeLine, .cm-activeLineGutter': { backgroundColor: 'var(--surface)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground':
    { backgroundColor: 'var(--accent-soft)' },
  '.cm-tooltip': {
    backgroundColor: 'var(--surface-raised)',
    color: 'var(--text)',
    border: 'var(--border-width, 1px) solid var(--border)',
  },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--danger)' },
  '.cm-errorLine': { backgroundColor: 'var(--danger-soft)' },
});

/**
 * A CodeMirror 6 editor of one file: its language by extension, Ctrl/Cmd-S saves, and a render
 * error at its line (a lint diagnostic, the cursor there, scrolled into view). Mount it again
 * (a React key) for another file; `stored`, the file as saved when nothing is being edited,
 * replaces the text when it changes underneath (a restore, another tab), without a remount.
 */
export function CodeEditor({
  path,
  initial,
  stored,
  error,
  onChange,
  onSave,
}: {
  path: string;
  initial: string;
  stored?: string;
  error: ErrorAt | null;
  onChange(content: string): void;
  onSave(): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onChange, onSave });
  const [view, setView] = useState<EditorView | null>(null);
  useEffect(() => {
    handlers.current = { onChange, onSave };
  });
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          // Line numbers, undo history, search, bracket matching, folding ...
          basicSetup,
          syntaxHighlighting(highlight),
          language(path),
          lintGutter(),
          theme,
          keymap.of([
            { key: 'Mod-s', preventDefault: true, run: () => (handlers.current.onSave(), true) },
          ]),
          // An explicit tabindex: axe counts it as the scroller's keyboard-focusable content.
          EditorView.contentAttributes.of({ 'aria-label': `Contents of ${path}`, tabindex: '0' }),
          EditorView.updateListener.of((update) => {
            const typed = update.transactions.some((t) => !t.annotation(Transaction.remote));
            if (update.docChanged && typed) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    setView(editor);
    return () => editor.destroy();
    // The content is loaded once (a new file mounts the editor again); `stored` follows below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (!view || stored === undefined || stored === view.state.doc.toString()) return;
    // Not a change of the person's: no draft comes of it.
    view.dispatch({
      changes: { from: 0, to: view.state.doc.length, insert: stored },
      annotations: Transaction.remote.of(true),
    });
  }, [view, stored]);
  // The render error; again after a text replaced underneath (that dropped the diagnostic).
  useEffect(() => {
    if (!view) return;
    if (!error) {
      view.dispatch(setDiagnostics(view.state, []));
      return;
    }
    const doc = view.state.doc;
    const line = doc.line(Math.min(Math.max(error.line, 1), doc.lines));
    const at = Math.min(line.from + Math.max((error.column ?? 1) - 1, 0), line.to);
    view.dispatch(
      setDiagnostics(view.state, [
        { from: at, to: Math.max(at, line.to), severity: 'error', message: error.message },
      ]),
    );
    view.dispatch({
      selection: EditorSelection.cursor(at),
      effects: EditorView.scrollIntoView(at, { y: 'center' }),
    });
  }, [view, error, stored]);
  return <div ref={host} className="stage-editor" data-path={path} />;
}
