import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';

/** A browser to launch: its binary, and what its process needs in its environment. */
export interface ChromiumBinary {
  executablePath: string;
  env: Record<string, string>;
  /** `system` (Debian's, Chrome, or CHROMIUM_PATH) or `packaged` (@sparticuz/chromium's). */
  source: 'system' | 'packaged';
}

/** Where a system browser is looked for when CHROMIUM_PATH does not name one. */
const SYSTEM_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** The packaged build is unpacked once per version, here (beside the installed packages). */
const CACHE = resolve(__dirname, '..', '..', '..', 'node_modules', '.cache', 'chromium');

/**
 * The browser of the web UIs' tests: CHROMIUM_PATH when set, else a system Chromium or Chrome,
 * else the headless Chromium that the `@sparticuz/chromium` package ships inside its npm tarball
 * (brotli-compressed, with the NSS libraries and fonts it needs), so that `npm test` needs nothing
 * but Node.js. CHROMIUM=packaged skips the system browsers (CI proves the fallback with it).
 */
export async function chromiumBinary(): Promise<ChromiumBinary> {
  const named = process.env.CHROMIUM_PATH;
  if (named) return { executablePath: named, env: {}, source: 'system' };
  if (process.env.CHROMIUM !== 'packaged') {
    const found = SYSTEM_PATHS.find((path) => existsSync(path));
    if (found) return { executablePath: found, env: {}, source: 'system' };
  }
  const folder = await unpacked();
  return {
    executablePath: join(folder, 'chromium'),
    // Its own NSS, NSPR and expat; the system's libc for the rest.
    env: { LD_LIBRARY_PATH: join(folder, 'lib'), FONTCONFIG_PATH: join(folder, 'fonts') },
    source: 'packaged',
  };
}

let unpacking: Promise<string> | undefined;

/** The packaged build's folder, unpacked on first use (atomically: parallel test files race). */
function unpacked(): Promise<string> {
  unpacking ??= (async () => {
    if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
      throw new Error(
        `No Chromium found: set CHROMIUM_PATH to a Chromium or Chrome binary (the packaged ` +
          `build is for Linux only, this is ${process.platform}/${process.arch}).`,
      );
    }
    const bin = join(dirname(require.resolve('@sparticuz/chromium')), '..', '..', 'bin');
    const { version } = JSON.parse(await readFile(join(bin, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const folder = join(CACHE, version);
    if (existsSync(join(folder, 'chromium'))) return folder;
    await mkdir(CACHE, { recursive: true });
    const work = await mkdtemp(join(CACHE, `.${version}-`));
    try {
      await pipeline(
        createReadStream(join(bin, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(work, 'chromium')),
      );
      await chmod(join(work, 'chromium'), 0o755);
      for (const archive of ['al2023.tar.br', 'fonts.tar.br', 'swiftshader.tar.br'])
        await untar(join(bin, archive), work);
      await rename(work, folder);
    } catch (error) {
      await rm(work, { recursive: true, force: true });
      // Another process won the race: its copy is as good.
      if (existsSync(join(folder, 'chromium'))) return folder;
      throw error;
    }
    return folder;
  })();
  return unpacking;
}

/** Unpacks a `.tar.br` into a folder: brotli in Node, then the system's `tar` on the plain file. */
async function untar(archive: string, into: string): Promise<void> {
  const plain = join(into, '.archive.tar');
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(plain));
  const tar = spawn('tar', ['-x', '-f', plain, '-C', into], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  tar.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done, fail) => {
    tar.on('error', fail);
    tar.on('close', done);
  });
  await rm(plain, { force: true });
  if (code !== 0) throw new Error(`tar could not unpack ${archive} (${code}): ${stderr.trim()}`);
}
