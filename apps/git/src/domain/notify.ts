import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decryptSecret, deriveKey, encryptSecret, type ServiceContext } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase, RepositoryRow } from '../database.js';
import { postDelivery } from './hookshot.js';
import { findWebhook, listWebhooks } from '../repositories/webhooks.js';

/** `sha256=<hex>` of HMAC-SHA256 over the raw body: GitHub's X-Hub-Signature-256. */
export const hubSignature = (secret: string, body: string | Buffer) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/**
 * The key local webhook secrets are encrypted with: from SESSION_SECRET when authentication is
 * on, else a random key kept in `<GIT_DATA_DIR>/webhooks.key` (beside the repositories it serves).
 */
function secretKey(ctx: Pick<ServiceContext<GitDatabase, GitConfig>, 'auth' | 'config'>): Buffer {
  if (ctx.auth.sessionSecret) return deriveKey(ctx.auth.sessionSecret, 'git webhooks');
  const file = join(ctx.config.dataDir, 'webhooks.key');
  if (!existsSync(file)) {
    mkdirSync(ctx.config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  return deriveKey(readFileSync(file, 'utf8'), 'git webhooks');
}

/** A repository as GitHub's payloads name it. */
export const repositoryPayload = (repo: RepositoryRow) => ({
  id: repo.id,
  name: repo.repo_name,
  full_name: repo.name,
  owner: { login: repo.owner },
  default_branch: repo.default_branch,
  private: repo.private,
});

interface Delivery {
  webhookId: string;
  deliveryId: string;
  event: string;
  body: string;
}

/**
 * Local repositories' webhooks: each event a durable job per webhook, signed as GitHub signs.
 * Made once per instance (the state's `webhooks`): one job kind per queue.
 */
export function localWebhooks(ctx: ServiceContext<GitDatabase, GitConfig>) {
  const seal = (secret: string) => encryptSecret(secretKey(ctx), secret);
  const deliver = ctx.jobs.define<Delivery>({
    kind: 'webhook-delivery',
    maxAttempts: 8,
    backoffMs: (attempts) => Math.min(60_000 * 2 ** (attempts - 1), 3_600_000),
    handler: async ({ webhookId, deliveryId, event, body }, { signal }) => {
      const hook = await findWebhook(ctx.db, webhookId);
      if (!hook?.secret) return { skipped: 'webhook deleted' };
      const secret = decryptSecret(secretKey(ctx), hook.secret);
      const status = await postDelivery(
        hook.url,
        body,
        {
          'content-type': 'application/json',
          'user-agent': 'platform-git-hookshot',
          'x-github-event': event,
          'x-github-delivery': deliveryId,
          'x-hub-signature-256': hubSignature(secret, body),
        },
        { timeoutMs: ctx.config.timeoutMs, signal, allowPrivate: ctx.config.allowPrivateTargets },
      );
      return { status };
    },
  });

  /** Queues `event` for every webhook of a local repository. */
  async function emit(repo: RepositoryRow, event: string, payload: Record<string, unknown>) {
    const hooks = await listWebhooks(ctx.db, repo.id);
    const body = JSON.stringify({ ...payload, repository: repositoryPayload(repo) });
    for (const hook of hooks)
      if (hook.events.includes(event))
        await deliver.enqueue({ webhookId: hook.id, deliveryId: randomUUID(), event, body });
  }
  return { emit, seal };
}
export type LocalWebhooks = ReturnType<typeof localWebhooks>;
