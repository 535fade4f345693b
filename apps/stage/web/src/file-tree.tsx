interface Folder {
  name: string;
  folders: Map<string, Folder>;
  files: string[];
}

/** Paths (`/app/main.tsx`) as folders and files, each level sorted, folders first. */
function treeOf(paths: readonly string[]): Folder {
  const root: Folder = { name: '', folders: new Map(), files: [] };
  for (const path of paths) {
    const parts = path.split('/').filter(Boolean);
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { name: part, folders: new Map(), files: [] }));
      folder = next;
    }
    folder.files.push(path);
  }
  return root;
}

function FolderItems({
  folder,
  selected,
  onSelect,
  dirty,
}: {
  folder: Folder;
  selected: string | null;
  onSelect(path: string): void;
  dirty: ReadonlySet<string>;
}) {
  const folders = [...folder.folders.values()].sort((a, b) => a.name.localeCompare(b.name));
  const files = [...folder.files].sort();
  return (
    <ul>
      {folders.map((f) => (
        <li key={f.name}>
          <span className="stage-folder">{f.name}/</span>
          <FolderItems folder={f} selected={selected} onSelect={onSelect} dirty={dirty} />
        </li>
      ))}
      {files.map((path) => (
        <li key={path}>
          <button
            type="button"
            className="stage-file"
            aria-current={path === selected ? 'true' : undefined}
            title={path}
            onClick={() => onSelect(path)}
          >
            {path.split('/').pop()}
            {dirty.has(path) && (
              <>
                <span aria-hidden="true"> •</span>
                <span className="ui-sr-only"> (unsaved)</span>
              </>
            )}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The session's files as a tree; a file opens in the editor. */
export function FileTree({
  paths,
  selected,
  onSelect,
  dirty,
}: {
  paths: readonly string[];
  selected: string | null;
  onSelect(path: string): void;
  dirty: ReadonlySet<string>;
}) {
  if (paths.length === 0) return <p className="ui-empty">No files yet.</p>;
  return (
    <nav aria-label="Files" className="stage-tree">
      <FolderItems folder={treeOf(paths)} selected={selected} onSelect={onSelect} dirty={dirty} />
    </nav>
  );
}
