import type { Link } from '../../database.js';

/** What the overview and the scorecards read of a service's own record. */
export interface LinkedService {
  links: readonly Link[];
  annotations: Readonly<Record<string, string>>;
}

/** A repository a service names: `owner/repo` as the git service's fullName, and where it says so. */
export interface RepositoryRef {
  fullName: string;
  /** The annotation key, or `links[i]`. */
  source: string;
}

/** Annotations naming a repository: Backstage's, and what the git service's discovery sets. */
export const SLUG_ANNOTATION = 'github.com/project-slug';
export const LOCATION_ANNOTATIONS = [
  'backstage.io/source-location',
  'backstage.io/managed-by-location',
  'backstage.io/managed-by-origin-location',
];
/** Link types that name the service's repository. */
const REPOSITORY_LINK_TYPES = new Set(['repository', 'source', 'source-code']);
/** At most this many repositories of one service are looked up. */
export const MAX_REPOSITORIES = 10;

const SEGMENT = /^(?!\.+$)[A-Za-z0-9._-]+$/;

/** `owner/repo` when both parts are valid repository segments (as the git service takes them). */
function fullName(owner: string | undefined, repo: string | undefined): string | undefined {
  if (!owner || !repo) return undefined;
  const name = repo.replace(/\.git$/, '');
  return SEGMENT.test(owner) && SEGMENT.test(name) ? `${owner}/${name}` : undefined;
}

/**
 * The repository a location names (`url:` prefix optional): a github.com URL
 * (`https://github.com/<owner>/<repo>/...`) or the platform's own smart-HTTP URL of a local
 * repository (`<origin>/git/<owner>/<repo>.git/...`), as git's catalog discovery writes it.
 */
export function repositoryOfUrl(location: string): string | undefined {
  const raw = location.replace(/^url:/, '');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const segments = url.pathname.split('/').filter(Boolean);
  const local = segments.indexOf('git');
  if (local >= 0 && segments[local + 2]?.endsWith('.git'))
    return fullName(segments[local + 1], segments[local + 2]);
  if (url.hostname.toLowerCase() === 'github.com') return fullName(segments[0], segments[1]);
  return undefined;
}

/**
 * The repositories a service names, first mention first, without repeats (any case): its
 * `github.com/project-slug` annotation, the locations of its source and of the catalog file it
 * came from (`backstage.io/source-location`, `backstage.io/managed-by-location`,
 * `backstage.io/managed-by-origin-location`), and its links of type `repository` or `source`.
 */
export function repositoryRefs(service: LinkedService): RepositoryRef[] {
  const found: RepositoryRef[] = [];
  const add = (name: string | undefined, source: string) => {
    if (!name || found.some((r) => r.fullName.toLowerCase() === name.toLowerCase())) return;
    found.push({ fullName: name, source });
  };
  const slug = service.annotations[SLUG_ANNOTATION]?.trim().split('/');
  if (slug?.length === 2) add(fullName(slug[0], slug[1]), SLUG_ANNOTATION);
  for (const key of LOCATION_ANNOTATIONS) {
    const value = service.annotations[key];
    if (value) add(repositoryOfUrl(value), key);
  }
  service.links.forEach((link, i) => {
    if (link.type && REPOSITORY_LINK_TYPES.has(link.type.toLowerCase()))
      add(repositoryOfUrl(link.url), `links[${i}]`);
  });
  return found.slice(0, MAX_REPOSITORIES);
}

/** Annotations that point at a service's documentation (Backstage TechDocs). */
const DOCS_ANNOTATIONS = ['backstage.io/techdocs-ref', 'backstage.io/techdocs-entity'];
const DOCS_LINK_TYPES = new Set(['docs', 'documentation', 'techdocs', 'runbook']);

/**
 * Where a service's documentation is, or undefined: a TechDocs annotation, else a link whose
 * type is `docs`, `documentation`, `techdocs` or `runbook`, or whose title has the word docs or
 * documentation (any case).
 */
export function docsOf(service: LinkedService): string | undefined {
  const annotation = DOCS_ANNOTATIONS.find((key) => service.annotations[key]?.trim());
  if (annotation) return `annotation ${annotation}`;
  const link = service.links.find(
    (l) =>
      (l.type && DOCS_LINK_TYPES.has(l.type.toLowerCase())) ||
      (l.title && /\b(docs|documentation)\b/i.test(l.title)),
  );
  return link && `link ${link.url}`;
}
