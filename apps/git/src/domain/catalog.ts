import { parseAllDocuments } from 'yaml';
import type { ServiceContext } from '@platform/core';
import type { GitConfig } from '../config.js';
import type { GitDatabase, RepositoryRow } from '../database.js';
import { findProvider } from '../repositories/providers.js';
import { findRepository, updateCatalogState } from '../repositories/repos.js';
import { cloneUrl } from '../schemas/smart.js';
import { localGitdir } from './access.js';
import { gitIn } from './smart/refs.js';

export const DEFAULT_CATALOG_PATH = 'catalog-info.yaml';
export const MANAGED_BY = 'backstage.io/managed-by-location';
const ORIGIN = 'backstage.io/managed-by-origin-location';

/** A catalog record a repository's file made. */
export interface Made {
  target: string;
  name: string;
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
   * Applies a repository's catalog file (`text`; null when there is none). The annotation names
   * the repository's html url (a local one's is its clone URL), else its clone URL here.
   */
  async function apply(repo: RepositoryRow, text: string | null, branch: string) {
    const path = repo.catalog_path ?? DEFAULT_CATALOG_PATH;
    const url = repo.html_url ?? cloneUrl(origin(), repo.owner, repo.repo_name);
    const location = `url:${url}/blob/${branch}/${path}`;
    const previous = (Array.isArray(repo.catalog_entities) ? repo.catalog_entities : []) as Made[];
    let made: Made[] = [];
    if (text !== null) {
      const parsed = descriptors(text, location);
      if ('error' in parsed) return updateCatalogState(ctx.db, repo.id, `${path}: ${parsed.error}`);
      try {
        const result = await ctx.platform.catalog.importEntities({
          body: { entities: parsed.entities as never },
        });
        made = result.entities.map((e) => ({ target: e.target, name: e.name }));
      } catch (error) {
        const status = statusOf(error);
        if (status === undefined || status >= 500) throw error; // tried again (a durable job)
        return updateCatalogState(ctx.db, repo.id, `${path}: ${messageOf(error)}`);
      }
    }
    const kept = new Set(made.map((m) => `${m.target}:${m.name.toLowerCase()}`));
    const gone = previous
      .filter((m) => !kept.has(`${m.target}:${m.name.toLowerCase()}`))
      .sort((a, b) => REMOVAL_ORDER.indexOf(a.target) - REMOVAL_ORDER.indexOf(b.target));
    const failures: string[] = [];
    for (const { target, name } of gone) {
      const path = { idOrName: name };
      const remove = {
        service: () => ctx.platform.catalog.deleteService({ path }),
        api: () => ctx.platform.catalog.deleteApi({ path }),
        system: () => ctx.platform.catalog.deleteSystem({ path }),
        owner: () => ctx.platform.catalog.deleteOwner({ path }),
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
    return gitIn(gitdir, ['cat-file', 'blob', spec]).catch(() => null);
  }

  const job = ctx.jobs.define<{ repositoryId: string }>({
    kind: 'catalog-discovery',
    maxAttempts: 8,
    handler: async ({ repositoryId }) => {
      const repo = await findRepository(ctx.db, repositoryId).catch(() => undefined);
      if (!repo) return { skipped: 'repository disconnected' };
      await apply(repo, await readLocal(repo), repo.default_branch);
      return { repository: repo.name };
    },
  });

  /**
   * A github repository at its sync: the file read with the caller's own token (`read` answers
   * null for none). Never fails the sync: what went wrong is kept as the repository's error.
   */
  async function sync(
    repo: RepositoryRow,
    read: (path: string) => Promise<{ content: string; encoding: string } | null>,
  ) {
    try {
      const file = await read(repo.catalog_path ?? DEFAULT_CATALOG_PATH);
      const text =
        file && Buffer.from(file.content, file.encoding === 'base64' ? 'base64' : 'utf8');
      await apply(repo, text ? text.toString('utf8') : null, repo.default_branch);
    } catch (error) {
      ctx.log.warn({ err: error, repository: repo.name }, 'catalog discovery failed');
      await updateCatalogState(ctx.db, repo.id, `catalog discovery failed: ${messageOf(error)}`);
    }
  }

  return {
    apply,
    sync,
    /** Queues a local repository's discovery (after a push to its default branch). */
    enqueue: (repo: RepositoryRow) => job.enqueue({ repositoryId: repo.id }),
  };
}
export type CatalogDiscovery = ReturnType<typeof catalogDiscovery>;
