import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Header, Parser, type ReadEntry } from 'tar';

const FIXTURES = join(__dirname, 'fixtures', 'npm');

/** A tarball the registry serves, with the integrity it announces. */
export interface Published {
  name: string;
  version: string;
  tarball: Buffer;
  integrity: string;
}

/** The fixtures: real tarballs (npm pack) with the integrity the npm registry gives for them. */
export function fixtures(): Published[] {
  const index = JSON.parse(readFileSync(join(FIXTURES, 'index.json'), 'utf8')) as Array<{ name: string; version: string; file: string; integrity: string }>; // prettier-ignore
  return index.map(({ name, version, file, integrity }) => ({
    name,
    version,
    integrity,
    tarball: readFileSync(join(FIXTURES, file)),
  }));
}

/** A package made in a test (not a real one): its integrity is that of its bytes. */
export const made = (name: string, version: string, tarball: Buffer): Published => ({
  name,
  version,
  tarball,
  integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
});

/** A gzipped tar of `entries` as written (paths as given, links included): packages made in tests. */
export function tarball(
  entries: Array<{
    path: string;
    data?: string;
    type?: 'File' | 'SymbolicLink';
    linkpath?: string;
  }>,
): Buffer {
  const blocks: Buffer[] = [];
  for (const { path, data = '', type = 'File', linkpath } of entries) {
    const bytes = type === 'File' ? Buffer.from(data) : Buffer.alloc(0);
    const header = new Header({ path, type, linkpath, mode: 0o644, size: bytes.length, mtime: new Date(0) }); // prettier-ignore
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block, bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

export interface LocalRegistry {
  url: string;
  /** Paths asked for, in order (packuments and tarballs). */
  requests: string[];
  publish(pkg: Published): void;
  /** Serves these packages' tarballs with a byte changed (the packument's integrity unchanged). */
  tampered: Set<string>;
  close(): Promise<void>;
}

/**
 * An npm registry on 127.0.0.1 speaking what installers use: the package document at `/<name>`
 * (`/@scope%2fname` for a scoped one; the abbreviated form's fields) and each tarball at its
 * `dist.tarball` URL (`/<name>/-/<base>-<version>.tgz`); 404 for anything else.
 */
export async function localRegistry(packages: Published[] = fixtures()): Promise<LocalRegistry> {
  const published = new Map<string, Published[]>();
  const manifests = new Map<Published, Record<string, unknown>>();
  const requests: string[] = [];
  const tampered = new Set<string>();
  let url = '';
  const tarballPath = (p: Published) => `/${p.name}/-/${p.name.split('/').pop()}-${p.version}.tgz`; // prettier-ignore
  const publish = (pkg: Published) => {
    manifests.set(pkg, manifestOf(pkg.tarball));
    published.set(pkg.name, [...(published.get(pkg.name) ?? []), pkg]);
  };
  packages.forEach(publish);

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const send = (status: number, body: string | Buffer, type = 'application/json') =>
      res.writeHead(status, { 'content-type': type, 'content-length': body.length }).end(body);
    const tarball = [...published.values()].flat().find((p) => tarballPath(p) === path);
    if (tarball) {
      const bytes = Buffer.from(tarball.tarball);
      if (tampered.has(tarball.name)) bytes[bytes.length >> 1] ^= 0xff;
      return send(200, bytes, 'application/octet-stream');
    }
    const versions = published.get(path.slice(1));
    if (!versions) return send(404, JSON.stringify({ error: 'Not found' }));
    const latest = versions[versions.length - 1].version;
    const doc = {
      name: path.slice(1),
      'dist-tags': { latest },
      modified: new Date().toISOString(),
      versions: Object.fromEntries(
        versions.map((p) => [
          p.version,
          {
            ...manifests.get(p),
            dist: {
              tarball: `${url}${tarballPath(p)}`,
              integrity: p.integrity,
              shasum: createHash('sha1').update(p.tarball).digest('hex'),
            },
          },
        ]),
      ),
    };
    send(200, JSON.stringify(doc), 'application/vnd.npm.install-v1+json');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    publish,
    tampered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A version's fields in the registry's abbreviated document, from the package.json it holds. */
function manifestOf(tgz: Buffer): Record<string, unknown> {
  let json: Record<string, unknown> | undefined;
  const parser = new Parser({
    onReadEntry: (entry: ReadEntry) => {
      if (!/^[^/]+\/package\.json$/.test(entry.path)) return entry.resume();
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => (json = JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    },
  });
  parser.end(gunzipSync(tgz));
  if (!json) throw new Error('a tarball without package.json');
  const keys = ['name', 'version', 'license', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta']; // prettier-ignore
  return Object.fromEntries(keys.filter((k) => json![k] !== undefined).map((k) => [k, json![k]]));
}
