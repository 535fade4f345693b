import { extname, join } from 'node:path';
import {
  build,
  type ImportKind,
  type Loader,
  type Message,
  type Plugin,
  type PluginBuild,
} from 'esbuild';
import { isBinaryType } from '../paths.js';
import { isFileSpec, resolveSessionFile, type SessionFiles } from '../render/session-paths.js';
import { notAPackage } from '../npm/lock.js';
import { Packages, type Install } from '../npm/plugin.js';
import { NpmError } from '../npm/registry.js';
import { VIRTUAL_MODULES } from './bridge.js';

/** Where an app's backend lives in its session, in the order looked for. */
export const BACKEND_ENTRIES = ['/app/api/index.ts', '/app/api/index.tsx', '/app/api/index.js'];

/** The shipped packages a backend may import (any subpath of them): stage's own copies. */
const SHIPPED = /^hono(\/.*)?$/;
const PACKAGE_ROOT = join(__dirname, '..', '..', '..');
const SESSION = 'session';
const VIRTUAL = 'stage-module';

const LOADERS: Record<string, Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.tsx': 'tsx',
  '.js': 'jsx',
  '.mjs': 'jsx',
  '.jsx': 'jsx',
  '.json': 'json',
  '.txt': 'text',
  '.md': 'text',
  '.html': 'text',
};
const EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.json'];

export type Bundle =
  { ok: true; code: string; lock: string | null } | { ok: false; message: string };

/**
 * The backend of a session's `files`: the entry and what it imports from the session, hono, the
 * virtual modules and the npm packages `install` gives (npm/; other bare imports are errors
 * without it), as one script assigning the module to `__stage_backend`. Nothing else on the
 * server's disk is reachable. Errors name the session file, line and column. `lock`: the
 * session's new /app/package-lock.json, when it changed.
 */
export async function bundleBackend(
  entry: string,
  files: SessionFiles,
  install?: Install,
): Promise<Bundle> {
  const packages = install ? new Packages((spec) => SHIPPED.test(spec), shipped) : undefined;
  const run = () =>
    build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      outdir: '/out',
      format: 'iife',
      globalName: '__stage_backend',
      platform: 'neutral',
      // An isolate is no Node.js: packages' browser builds, as Cloudflare's wrangler picks them.
      mainFields: ['browser', 'module', 'main'],
      conditions: ['worker', 'browser'],
      target: 'es2022',
      jsx: 'automatic',
      jsxImportSource: 'hono/jsx',
      // The scan is only read: no need to make it small.
      minify: !packages?.scanning,
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [backendFiles(files, packages)],
    });
  try {
    let result = await run();
    let lock: string | null = null;
    // That pass found the npm packages the app imports: installed, then the bundle itself.
    if (packages) {
      lock = await packages.install(install!);
      result = await run();
    }
    return { ok: true, code: result.outputFiles[0]?.text ?? '', lock };
  } catch (error) {
    if (error instanceof NpmError) return { ok: false, message: error.message };
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    const at = first.location?.file.startsWith(`${SESSION}:`) ? first.location : null;
    const where = at ? `${at.file.slice(SESSION.length + 1)}:${at.line}:${at.column + 1}: ` : '';
    const inPackage = first.location && packages?.where(first.location.file);
    return { ok: false, message: `${where}${first.text}${inPackage ? ` (in ${inPackage})` : ''}` };
  }
}

/** hono (any subpath) as the platform ships it. */
async function shipped(spec: string, kind: ImportKind, build: PluginBuild) {
  const resolved = await build.resolve(spec, { kind, resolveDir: PACKAGE_ROOT });
  if (resolved.errors.length === 0) return { path: resolved.path };
  return { errors: [{ text: `"${spec}" is not part of the hono the platform ships` }] };
}

function backendFiles(files: SessionFiles, packages: Packages | undefined): Plugin {
  return {
    name: 'backend-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (Packages.own(args)) return undefined;
        if (args.kind === 'entry-point') return { path: args.path, namespace: SESSION };
        // Inside hono, esbuild resolves as usual; inside npm packages, in their tree.
        if (args.namespace !== SESSION) return packages?.fromPackage(args, build);
        const spec = args.path;
        if (Object.hasOwn(VIRTUAL_MODULES, spec)) return { path: spec, namespace: VIRTUAL };
        if (isFileSpec(spec)) return resolveSessionFile(files, EXTENSIONS, args, SESSION);
        const refusal = notAPackage(spec);
        if (refusal) return { errors: [{ text: refusal }] };
        if (SHIPPED.test(spec))
          return packages?.scanning
            ? { path: spec, external: true }
            : shipped(spec, args.kind, build);
        // @stage/ names the platform's modules, never a package of the registry.
        if (packages && !spec.startsWith('@stage/')) return packages.fromApp(spec, args, build);
        return {
          errors: [
            {
              text: `"${spec}" cannot be imported: a backend may import its session's files, hono, @stage/inference, @stage/compute and @stage/utils only`,
            },
          ],
        };
      });
      build.onLoad({ filter: /.*/, namespace: SESSION }, (args) => {
        const contents = files.get(args.path) ?? '';
        const loader = LOADERS[extname(args.path)];
        // Images, fonts and other bytes: a Uint8Array of the file.
        if (isBinaryType(args.path) || (!loader && typeof contents !== 'string'))
          return { contents, loader: 'binary' };
        return { contents, loader: loader ?? 'text' };
      });
      build.onLoad({ filter: /.*/, namespace: VIRTUAL }, (args) => ({
        contents: VIRTUAL_MODULES[args.path],
        loader: 'js',
      }));
    },
  };
}
