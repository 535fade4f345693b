import { describeIdentity, type Identity } from '@platform/core';
import {
  AUTH_ENV,
  CALLERS,
  jsonApiAs,
  keyCaller,
  person,
  serviceUnderTest,
  type JsonApi,
  type ServiceUnderTest,
} from '@platform/testing';
import type { GitDatabase } from '../src/database';
import { git } from '../src/index';
import { tempDir } from './helpers';

// Git with authentication on, a local provider (the platform is the git host: no delegated
// token), and one repository connected by CALLERS.owner for team 'payments', with a commit on
// main, a branch `feature` one commit ahead, pull request #1 from it, and a webhook.

/** CALLERS.owner, in team payments (its groups claim) so that the connection may name it. */
export const OWNER = person(describeIdentity(CALLERS.owner), 'member', ['payments']);

export const WEBHOOK_SECRET = 'the-webhook-secret-of-the-access-tests';
export const HOOK_URL = 'http://127.0.0.1:9/hook';

/** Personal keys (they act as their owner) and keys without a person. */
export const KEYS = {
  ownerWrite: keyCaller(['git:write'], {
    owner: describeIdentity(CALLERS.owner),
    name: 'owner-write',
  }),
  strangerWrite: keyCaller(['git:write'], {
    owner: describeIdentity(CALLERS.stranger),
    name: 'other',
  }),
  read: keyCaller(['git:read'], { owner: describeIdentity(CALLERS.owner), name: 'reader' }),
  otherService: keyCaller(['catalog:write'], {
    owner: describeIdentity(CALLERS.owner),
    name: 'catalog',
  }),
  team: keyCaller(['git:write'], { owner: null, team: 'payments', name: 'payments-bot' }),
};

export interface AccessWorld {
  svc: ServiceUnderTest;
  /** The repository's id. */
  id: string;
  as(identity: Identity | undefined): JsonApi;
  /** What an admin reads of the repository: a branch's head sha, the branches' names. */
  head(branch: string): Promise<string | undefined>;
  branches(): Promise<string[]>;
  /** The repository's webhooks (urls), as stored. */
  webhooks(): Promise<string[]>;
  close(): Promise<void>;
}

export async function accessWorld(): Promise<AccessWorld> {
  const data = tempDir('git-access-');
  const svc = await serviceUnderTest(git, {
    env: {
      ...AUTH_ENV,
      GIT_DATA_DIR: data.dir,
      GIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GIT_ALLOW_PRIVATE_TARGETS: 'true',
    },
    jobs: false,
  });
  const as = (identity: Identity | undefined) => jsonApiAs(svc.app, git.prefix, identity);
  const admin = as(CALLERS.admin);
  const owner = as(OWNER);
  const made = async (res: Promise<{ status: number; body: { data: unknown } }>) => {
    const { status, body } = await res;
    if (status >= 300) throw new Error(`setup failed: ${status} ${JSON.stringify(body)}`);
    return body.data as Record<string, unknown>;
  };
  await made(admin.post('/providers', { name: 'local', type: 'local' }));
  const repo = await made(
    owner.post('/repos', { providerId: 'local', owner: 'acme', repoName: 'app', team: 'payments' }),
  );
  const id = repo.id as string;
  const files = (path: string) => [{ path, content: `${path}\n` }];
  await made(
    owner.post(`/repos/${id}/commits`, {
      branch: 'main',
      message: 'Initial',
      files: files('README.md'),
    }),
  );
  await made(owner.post(`/repos/${id}/branches`, { name: 'feature' }));
  await made(
    owner.post(`/repos/${id}/commits`, {
      branch: 'feature',
      message: 'More',
      files: files('more.txt'),
    }),
  );
  await made(owner.post(`/repos/${id}/pulls`, { title: 'More', head: 'feature', base: 'main' }));
  await made(owner.post(`/repos/${id}/webhooks`, { url: HOOK_URL }));

  const db = svc.db.schema<GitDatabase>('git');
  const listBranches = async () =>
    (await admin.get(`/repos/${id}/branches`)).body.data as Array<{ name: string; sha: string }>;
  return {
    svc,
    id,
    as,
    head: async (branch) => (await listBranches()).find((b) => b.name === branch)?.sha,
    branches: async () => (await listBranches()).map((b) => b.name),
    webhooks: async () =>
      (await db.selectFrom('webhooks').select('url').where('repository_id', '=', id).execute()).map(
        (w) => w.url,
      ),
    async close() {
      await svc.close();
      data.remove();
    },
  };
}
