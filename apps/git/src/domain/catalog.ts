import { parseAllDocuments } from 'yaml';
import type { Identity, ServiceContext } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase, RepositoryRow } from '../database.js';
import { findProvider } from '../repositories/providers.js';
import { findRepository, updateCatalogState } from '../repositories/repos.js';
import { cloneUrl } from '../schemas/smart.js';
import { localGitdir } from './access.js';
import { refusal, refusedSteps } from './catalog-owners.js';
import { gitIn } from './smart/refs.js';

export const DEFAULT_CATALOG_PATH = 'catalog-info.yaml';
export const MANAGED_BY = 'backstage.io/managed-by-location';
const ORIGIN = 'backstage.io/managed-by-origin-location';

/** A catalog record a repository's file holds; `created`: the file's import made it. */
export interface Made {
  target: string;
  name: string;
  created?: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The descriptors of a catalog-info.yaml, each annotated with where it comes from; or why not. */
export function descriptors(
  text: string,
  location: string,
): { entities: Json[] } | { error: string } {
  const documents = parseAllDocuments(text);
  const entities: Json[] = [];
  for (const [index, document] of (Array.isArray(documents) ? documents : [documents]).entries()) {
    if (document.errors.length > 0)
      return { error: `document ${index + 1}: ${document.errors[0].message.split('\n')[0]}` };
    const entity: unknown = document.toJS();
    if (entity === null || entity === undefined) continue;
    if (!isObject(entity) || typeof entity.kind !== 'string' || !isObject(entity.metadata))
      return { error: `document ${index + 1}: not a Backstage entity (kind and metadata)` };
    const annotations = isObject(entity.metadata.annotations) ? entity.metadata.annotations : {};
    entity.metadata = {
      ...entity.metadata,
      annotations: { ...annotations, [MANAGED_BY]: location, [ORIGIN]: location },
    };
    entities.push(entity);
  }
  return { entities };
}

const REMOVAL_ORDER = ['service', 'api', 'system', 'owner'];
const statusOf = (error: unknown) => (error as { status?: number }).status;
const messageOf = (error: unknown) => (error as Error).message;
/** git's answer for a branch or a path that is not there (anything else is a failure). */
const missing = (error: unknown) =>
  /does not exist in|invalid object name|not a valid object name/i.test(
    String((error as { stderr?: unknown }).stderr ?? ''),
  );

/**
 * Catalog discovery: a repository's catalog file (its path in the settings, else
 * catalog-info.yaml) on its default branch, sent to the catalog's import (service to service),
 * annotated with `backstage.io/managed-by-location: url:<clone URL>/blob/<branch>/<path>`. What the
 * file no longer holds is removed from the catalog. A file the import refuses changes nothing
 * there (the import is one transaction) and its reason is kept on the repository.
 */
export function catalogDiscovery(ctx: ServiceContext<GitDatabase, GitConfig>) {
  const origin = () => ctx.config.publicUrl ?? 'http://localhost:3000';

  /**
   * Applies a repository's catalog file (`text`; null when there is none) as `identity` (who
   * pushed, or who synced): the catalog decides what that person may create, and what they do not
   * own is refused. The annotation names a github repository's html url, a local one's clone URL
   * at GIT_PUBLIC_URL (else http://localhost:3000; never a stored one). Only the records the file's own import created are removed when it no longer holds them.
   */
  async function apply(
    repo: RepositoryRow,
    text: string | null,
    branch: string,
    identity: Identity,
  ) {
    const path = repo.catalog_path ?? DEFAULT_CATALOG_PATH;
    const local = (await findProvider(ctx.db, repo.provider_id)).type === 'local';
    const url = (!local && repo.html_url) || cloneUrl(origin(), repo.owner, repo.repo_name);
    const location = `url:${url}/blob/${branch}/${path}`;
    const previous = (Array.isArray(repo.catalog_entities) ? repo.catalog_entities : []) as Made[];
    const key = (m: Made) => `${m.target}:${m.name.toLowerCase()}`;
    const createdBefore = new Set(previous.filter((m) => m.created === true).map(key));
    const catalog = ctx.platformFor(identity).catalog;
    let made: Made[] = [];
    if (text !== null) {
      const parsed = descriptors(text, location);
      if ('error' in parsed) return updateCatalogState(ctx.db, repo.id, `${path}: ${parsed.error}`);
      const entities = parsed.entities as never;
      try {
        const plan = await catalog.importEntities({ body: { entities, dryRun: true } });
        const refused = await refusedSteps(ctx, identity, plan.entities);
        if (refused.length > 0)
          return updateCatalogState(ctx.db, repo.id, `${path}: ${refusal(identity, refused)}`);
        const result = await catalog.importEntities({ body: { entities } });
        made = result.entities.map((e) => {
          const m = { target: e.target, name: e.name };
          return { ...m, created: e.action === 'created' || createdBefore.has(key(m)) };
        });
      } catch (error) {
        const status = statusOf(error);
        if (status === undefined || status >= 500) throw error; // tried again (a durable job)
        return updateCatalogState(ctx.db, repo.id, `${path}: ${messageOf(error)}`);
      }
    }
    const kept = new Set(made.map(key));
    // Never what the file did not create (a record someone made, that the file only updated).
    const gone = previous
      .filter((m) => m.created === true && !kept.has(key(m)))
      .sort((a, b) => REMOVAL_ORDER.indexOf(a.target) - REMOVAL_ORDER.indexOf(b.target));
    const failures: string[] = [];
    for (const { target, name } of gone) {
      const path = { idOrName: name };
      const remove = {
        service: () => catalog.deleteService({ path }),
        api: () => catalog.deleteApi({ path }),
        system: () => catalog.deleteSystem({ path }),
        owner: () => catalog.deleteOwner({ path }),
      }[target];
      await remove?.().catch((error: unknown) => {
        if (statusOf(error) !== 404) failures.push(`${target} ${name}: ${messageOf(error)}`);
      });
    }
    const error = failures.length > 0 ? `could not remove ${failures.join('; ')}` : null;
    return updateCatalogState(ctx.db, repo.id, error, made);
  }

  /** A local repository's file at the head of its default branch (null when absent). */
  async function readLocal(repo: RepositoryRow) {
    const provider = await findProvider(ctx.db, repo.provider_id);
    const gitdir = localGitdir(ctx.config, provider.id, repo.owner, repo.repo_name);
    const spec = `refs/heads/${repo.default_branch}:${repo.catalog_path ?? DEFAULT_CATALOG_PATH}`;
    // Only a branch or a path that is not there is "no file"; any other failure is tried again.
    const exists = await gitIn(gitdir, ['cat-file', '-e', spec]).then(
      () => true,
      (error: unknown) => (missing(error) ? false : Promise.reject(error)),
    );
    return exists ? gitIn(gitdir, ['cat-file', 'blob', spec]) : null;
  }

  const job = ctx.jobs.define<{ repositoryId: string; identity?: Identity }>({
    kind: 'catalog-discovery',
    maxAttempts: 8,
    handler: async ({ repositoryId, identity }) => {
      const repo = await findRepository(ctx.db, repositoryId).catch(() => undefined);
      if (!repo) return { skipped: 'repository disconnected' };
      // Never as the git service itself: a job queued without whom it acts for does nothing.
      if (!identity) return { skipped: 'no identity' };
      await apply(repo, await readLocal(repo), repo.default_branch, identity);
      return { repository: repo.name };
    },
  });

  /**
   * A github repository at its sync: the file read with the caller's own token (`read` answers
   * null for none). Never fails the sync: what went wrong is kept as the repository's error.
   */
  async function sync(
    repo: RepositoryRow,
    identity: Identity,
    read: (path: string) => Promise<{ content: string; encoding: string } | null>,
  ) {
    try {
      const file = await read(repo.catalog_path ?? DEFAULT_CATALOG_PATH);
      const text =
        file && Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
      await apply(repo, text ? text.toString('utf8') : null, repo.default_branch, identity);
    } catch (error) {
      ctx.log.warn({ err: error, repository: repo.name }, 'catalog discovery failed');
      await updateCatalogState(ctx.db, repo.id, `catalog discovery failed: ${messageOf(error)}`);
    }
  }

  return {
    apply,
    sync,
    /** Queues a local repository's discovery, as `identity` (who pushed or asked). */
    enqueue: (repo: RepositoryRow, identity: Identity) =>
      job.enqueue({ repositoryId: repo.id, identity }),
  };
}
export type CatalogDiscovery = ReturnType<typeof catalogDiscovery>;
