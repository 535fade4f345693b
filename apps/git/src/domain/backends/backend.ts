import { badRequest } from '@platform/core';
import {
  REF_MAX_LENGTH,
  REF_PATTERN,
  type Branch,
  type Commit,
  type Comparison,
  type Entry,
  type FileChange,
  type FileContent,
} from '../../schemas/git.js';

/** What a repository's provider says about it (POST /repos, /sync). */
export interface RepoMetadata {
  owner: string;
  repoName: string;
  htmlUrl: string | null;
  defaultBranch: string;
  private: boolean;
  status: 'active' | 'archived' | 'missing';
}

export interface Author {
  name: string;
  email: string;
}

export interface NewCommit {
  branch: string;
  message: string;
  files: FileChange[];
  author: Author;
}

/** The git operations every provider offers on one repository (pulls and webhooks differ). */
export interface GitBackend {
  metadata(): Promise<RepoMetadata>;
  listBranches(defaultBranch: string): Promise<Branch[]>;
  createBranch(name: string, from: string): Promise<Branch>;
  deleteBranch(name: string): Promise<void>;
  listCommits(ref: string, limit: number, offset: number): Promise<Commit[]>;
  getCommit(sha: string): Promise<Commit>;
  /** One commit of all the files, atomically: the branch moves only if nobody moved it meanwhile. */
  createCommit(commit: NewCommit): Promise<Commit>;
  listFiles(path: string, ref: string): Promise<Entry[]>;
  getFile(path: string, ref: string): Promise<FileContent>;
  compare(base: string, head: string): Promise<Comparison>;
}

/** Bytes as the API shows them: UTF-8 text as is, anything else in base64. */
export function encodeContent(bytes: Uint8Array): { encoding: 'utf8' | 'base64'; content: string } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    if (!text.includes('\u0000')) return { encoding: 'utf8', content: text };
  } catch {
    // Not UTF-8: base64 below.
  }
  return { encoding: 'base64', content: Buffer.from(bytes).toString('base64') };
}

/** A repository path as given: no leading or trailing /, no empty, `.` or `..` segment, no .git. */
export function checkPath(path: string, field = 'path'): string {
  const segments = path.split('/');
  const bad = segments.find(
    (s) => s === '' || s === '.' || s === '..' || s.toLowerCase() === '.git' || s.includes('\0'),
  );
  if (bad !== undefined)
    throw badRequest(
      `${field} ${JSON.stringify(path)} is not a valid path (no leading or trailing /, no empty, . or .. segment, no .git)`,
    );
  return path;
}

const REF = new RegExp(REF_PATTERN, 'u');

/**
 * A ref, branch or sha as the API takes it (REF_PATTERN, the schemas' rule, in code): for inputs
 * no schema covers (compare's `<base>...<head>`) and again in each backend, before git sees it.
 */
export function checkRef(ref: string, field = 'ref'): string {
  if (ref.length === 0 || ref.length > REF_MAX_LENGTH || !REF.test(ref))
    throw badRequest(
      `${field} ${JSON.stringify(ref.slice(0, REF_MAX_LENGTH))} is not a valid ref name (1-${REF_MAX_LENGTH} characters; no '..', '//', '@{', control characters, space or any of ~^:?*[\\; not starting with '-', '/' or '.', no component starting with '.' or ending in '.lock', not ending in '/' or '.')`,
    );
  return ref;
}
