import { randomUUID } from 'node:crypto';
import { newId, type Identity, type ServiceContext } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase, RepositoryRow } from '../database.js';
import { insertEvent } from '../repositories/webhooks.js';
import { repositoryPayload, type LocalWebhooks } from './notify.js';
import { commitsOf, isForced, ZERO, type RefUpdate } from './smart/refs.js';

/** Who pushed: GitHub's `pusher`. */
export interface Pusher {
  name: string;
  email: string;
}

interface LedgerPush {
  action: 'git.push';
  actor: string;
  resource: string;
  metadata: Record<string, string | number | boolean>;
  timestamp: string;
}

/** Called after each recorded push, with who pushed (catalog discovery listens). */
export type PushListener = (
  repo: RepositoryRow,
  update: RefUpdate,
  identity: Identity,
) => Promise<void>;

/**
 * Pushes to local repositories, through HTTP or the commits API: each updated ref is one push
 * event (GitHub's `push` payload) stored where received events are listed, sent to the
 * repository's webhooks, and appended to the ledger (a durable job, as the audit trail is).
 */
export function pushRecorder(ctx: ServiceContext<GitDatabase, GitConfig>, hooks: LocalWebhooks) {
  const listeners: PushListener[] = [];
  const ledger = ctx.jobs.define<LedgerPush>({
    kind: 'ledger-push',
    maxAttempts: 900,
    handler: async (event) => {
      await ctx.platform.ledger.createEvent({ body: { ...event, service: 'git' } });
    },
  });

  /**
   * Records the updates of one push. `known`: the shas the repository's refs pointed at before
   * (the commits listed are those new to it). `refEvents`: also a `create` or `delete` event for
   * a ref made or removed (git pushes; the API's branch routes send their own). `identity`: the
   * request's (what follows a push acts as that caller). Never throws: the refs have moved already.
   */
  async function record(
    repo: RepositoryRow,
    gitdir: string,
    updates: RefUpdate[],
    pusher: Pusher & { identity: Identity },
    known: string[],
    refEvents = false,
  ) {
    for (const update of updates) {
      try {
        await recordOne(repo, gitdir, update, pusher, known, refEvents);
      } catch (error) {
        ctx.log.error({ err: error, repository: repo.name, ref: update.ref }, 'push not recorded');
      }
    }
  }

  async function recordOne(
    repo: RepositoryRow,
    gitdir: string,
    update: RefUpdate,
    { identity, ...pusher }: Pusher & { identity: Identity },
    known: string[],
    refEvents: boolean,
  ) {
    const { ref, before, after } = update;
    const commits = await commitsOf(gitdir, after, known);
    const payload = {
      ref,
      before,
      after,
      created: before === ZERO,
      deleted: after === ZERO,
      forced: await isForced(gitdir, before, after),
      base_ref: null,
      compare: `${before.slice(0, 12)}...${after.slice(0, 12)}`,
      commits,
      head_commit: commits.at(-1) ?? null,
      pusher,
      sender: { login: pusher.email },
      repository: repositoryPayload(repo),
    };
    await insertEvent(ctx.db, {
      id: newId(),
      delivery_id: randomUUID(),
      event: 'push',
      action: null,
      repository_id: repo.id,
      repository_name: repo.name,
      payload,
      body_sha256: null,
    });
    await hooks.emit(repo, 'push', payload);
    // As GitHub: a branch or tag made or removed by a push is also a `create` or `delete` event.
    const named = /^refs\/(heads|tags)\/(.+)$/.exec(ref);
    if (refEvents && named && (payload.created || payload.deleted))
      await hooks.emit(repo, payload.created ? 'create' : 'delete', {
        ref: named[2],
        ref_type: named[1] === 'heads' ? 'branch' : 'tag',
        sender: payload.sender,
      });
    await ledger.enqueue({
      action: 'git.push',
      actor: pusher.email,
      resource: `git.repository:${repo.name}`,
      metadata: {
        ref,
        before,
        after,
        forced: payload.forced,
        deleted: payload.deleted,
        commits: commits.length,
      },
      timestamp: new Date().toISOString(),
    });
    for (const listener of listeners) await listener(repo, update, identity);
  }

  return {
    record,
    /** Adds what runs after every recorded push. */
    onPush: (listener: PushListener) => void listeners.push(listener),
  };
}
export type PushRecorder = ReturnType<typeof pushRecorder>;
