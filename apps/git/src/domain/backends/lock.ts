const locks = new Map<string, Promise<unknown>>();

/**
 * One write at a time per repository in this process (the API's commits, merges and branches,
 * and pushes over HTTP): a branch moves from what was read, and a push's refs are compared before
 * and after with nothing else moving them.
 */
export function serialised<T>(gitdir: string, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(gitdir) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  locks.set(gitdir, settled);
  void settled.then(() => locks.get(gitdir) === settled && locks.delete(gitdir));
  return next;
}
