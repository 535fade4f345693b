import { useState } from 'react';

/** Copies text: the Clipboard API, else a selected text area and the copy command. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'git-offscreen';
    document.body.append(area);
    area.select();
    const done = document.execCommand('copy');
    area.remove();
    return done;
  }
}

/** A local repository's clone URL (its htmlUrl) and a button copying it. */
export function CloneUrl({ url }: { url: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="git-clone">
      <code>{url}</code>{' '}
      <button
        type="button"
        className="ui-button"
        onClick={() => void copy(url).then((ok) => setState(ok ? 'copied' : 'failed'))}
      >
        Copy clone URL
      </button>{' '}
      <span role="status" className="ui-muted">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select the URL to copy it' : ''}
      </span>
    </span>
  );
}

/** How to clone: git asks for a password, which is a platform API key. */
export const CLONE_HINT =
  'git clone asks for a user name (any) and a password: a platform API key (git:read to clone, git:write to push).';
