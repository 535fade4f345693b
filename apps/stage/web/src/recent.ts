/**
 * The sessions opened in this browser. The API has no list of sessions (a session id is the
 * capability, like a CodeSandbox URL), so the UI remembers the ones made or opened here.
 */
export interface RecentSession {
  id: string;
  openedAt: number;
}

const KEY = 'stage-sessions';

export function recentSessions(): RecentSession[] {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? (value as RecentSession[]) : [];
  } catch {
    return [];
  }
}

function save(list: RecentSession[]) {
  localStorage.setItem(KEY, JSON.stringify(list.slice(0, 100)));
}

export function rememberSession(id: string) {
  save([{ id, openedAt: Date.now() }, ...recentSessions().filter((s) => s.id !== id)]);
}

export function forgetSession(id: string) {
  save(recentSessions().filter((s) => s.id !== id));
}
