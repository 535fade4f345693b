import { Agent, request } from 'undici';
import {
  checkedAddresses,
  guardedLookup,
  PrivateTargetError,
  UnresolvedTargetError,
  type TargetPolicy,
} from '@platform/core';
import type { NpmConfig } from '../../config/npm.js';

/** Why packages could not be had: its message fails the render as it is (it names the package). */
export class NpmError extends Error {
  override name = 'NpmError';
}

/** One version of a package as the registry describes it (the fields used here). */
export interface Manifest {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dist: { tarball: string; integrity?: string; shasum?: string; unpackedSize?: number };
}

/** A package's registry document (the abbreviated one: what installers read). */
export interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, Manifest>;
}

const ABBREVIATED = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';
const LIMIT_VARIABLE = 'STAGE_NPM_MAX_PACKAGE_BYTES';

/**
 * The npm registry over HTTP: package documents at `<registry>/<name>` (`@scope%2fname`) and
 * tarballs at their `dist.tarball` URLs. Every request is bounded by STAGE_NPM_FETCH_TIMEOUT_MS
 * and STAGE_NPM_MAX_PACKAGE_BYTES. Addresses are checked by the private-address guard (before
 * connecting and at connection time), except those of a registry the operator configured.
 */
export class Registry {
  private readonly agents = new Map<boolean, Agent>();

  constructor(private readonly config: NpmConfig) {}

  async packument(name: string): Promise<Packument> {
    const url = `${this.config.registry}/${name.replace('/', '%2f')}`;
    const body = await this.get(url, name, 'metadata', ABBREVIATED);
    try {
      const doc = JSON.parse(body.toString('utf8')) as Packument;
      if (typeof doc.versions !== 'object' || doc.versions === null) throw new Error('no versions');
      doc['dist-tags'] ??= {};
      return doc;
    } catch {
      throw new NpmError(`The registry's answer about "${name}" is not a package document`);
    }
  }

  tarball(name: string, version: string, url: string): Promise<Buffer> {
    return this.get(url, `${name}@${version}`, 'tarball', '*/*');
  }

  /** Tarball URLs on the registry's own origin (what a lock file's `resolved` may point to). */
  onRegistry(url: string): boolean {
    try {
      return new URL(url).origin === new URL(this.config.registry).origin;
    } catch {
      return false;
    }
  }

  async close() {
    await Promise.all([...this.agents.values()].map((agent) => agent.close()));
    this.agents.clear();
  }

  private policy(url: URL): TargetPolicy {
    const chosen = this.config.registryChosen && this.onRegistry(url.href);
    return { allowPrivate: chosen, setting: 'STAGE_NPM_REGISTRY' };
  }

  private agentFor(policy: TargetPolicy) {
    let agent = this.agents.get(policy.allowPrivate);
    if (!agent) {
      agent = new Agent({ connect: { lookup: guardedLookup(policy) } });
      this.agents.set(policy.allowPrivate, agent);
    }
    return agent;
  }

  private async get(raw: string, what: string, kind: string, accept: string): Promise<Buffer> {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new NpmError(`The ${kind} of "${what}" is at ${url.protocol} URL, not http(s)`);
    const { fetchTimeoutMs: ms, maxPackageBytes: max } = this.config;
    const policy = this.policy(url);
    const timeout = AbortSignal.timeout(ms);
    try {
      await checkedAddresses(url.hostname, policy, 'The npm registry');
      const res = await request(url, {
        method: 'GET',
        headers: { accept, 'user-agent': 'platform-stage' },
        signal: timeout,
        dispatcher: this.agentFor(policy),
        headersTimeout: ms,
        bodyTimeout: ms,
      });
      if (res.statusCode !== 200) {
        res.body.resume();
        if (res.statusCode === 404)
          throw new NpmError(
            kind === 'metadata'
              ? `Package "${what}" was not found in the npm registry (${url.host} answered 404)`
              : `The tarball of "${what}" was not found (${url.host} answered 404)`,
          );
        throw new NpmError(`The npm registry ${url.host} answered ${res.statusCode} for the ${kind} of "${what}"`); // prettier-ignore
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      const tooBig = () =>
        new NpmError(`The ${kind} of "${what}" is larger than ${max} bytes (${LIMIT_VARIABLE})`);
      if (declared > max) {
        res.body.destroy();
        throw tooBig();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > max) {
          res.body.destroy();
          throw tooBig();
        }
        chunks.push(chunk as Buffer);
      }
      return Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof NpmError) throw error;
      const cause = (error as { cause?: { code?: string } }).cause;
      const code = (error as { code?: string }).code;
      if (error instanceof PrivateTargetError || [cause?.code, code].includes('EPRIVATEADDRESS'))
        throw new NpmError(`The npm registry ${url.hostname} is a loopback, private, link-local or unspecified address, refused (only a registry set in STAGE_NPM_REGISTRY may be)`); // prettier-ignore
      if (error instanceof UnresolvedTargetError)
        throw new NpmError(`${error.message} for the ${kind} of "${what}"`);
      if (timeout.aborted)
        throw new NpmError(`The npm registry ${url.host} did not answer within ${ms} ms (STAGE_NPM_FETCH_TIMEOUT_MS) for the ${kind} of "${what}"`); // prettier-ignore
      throw new NpmError(`The npm registry ${url.host} could not be reached for the ${kind} of "${what}" (${cause?.code ?? code ?? (error as Error).message})`); // prettier-ignore
    }
  }
}
