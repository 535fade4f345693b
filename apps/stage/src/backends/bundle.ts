import { extname, join } from 'node:path';
import { build, type Loader, type Message, type Plugin } from 'esbuild';
import { isFileSpec, resolveSessionFile } from '../render/session-paths.js';
import { VIRTUAL_MODULES } from './bridge.js';

/** Where an app's backend lives in its session, in the order looked for. */
export const BACKEND_ENTRIES = ['/app/api/index.ts', '/app/api/index.tsx', '/app/api/index.js'];

/** The shipped packages a backend may import (any subpath of them): stage's own copies. */
const SHIPPED = /^hono(\/.*)?$/;
const PACKAGE_ROOT = join(__dirname, '..', '..');
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

export type Bundle = { ok: true; code: string } | { ok: false; message: string };

/**
 * The backend of a session's `files`: the entry and what it imports from the session, hono, and
 * the virtual modules, as one script assigning the module to `__stage_backend`. Nothing else on
 * the server's disk is reachable. Errors name the session file, line and column.
 */
export async function bundleBackend(
  entry: string,
  files: ReadonlyMap<string, string>,
): Promise<Bundle> {
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      outdir: '/out',
      format: 'iife',
      globalName: '__stage_backend',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['worker', 'browser'],
      target: 'es2022',
      jsx: 'automatic',
      jsxImportSource: 'hono/jsx',
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [backendFiles(files)],
    });
    return { ok: true, code: result.outputFiles[0]?.text ?? '' };
  } catch (error) {
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    const at = first.location?.file.startsWith(`${SESSION}:`) ? first.location : null;
    const where = at ? `${at.file.slice(SESSION.length + 1)}:${at.line}:${at.column + 1}: ` : '';
    return { ok: false, message: `${where}${first.text}` };
  }
}

function backendFiles(files: ReadonlyMap<string, string>): Plugin {
  return {
    name: 'backend-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point') return { path: args.path, namespace: SESSION };
        // Inside hono, esbuild resolves as usual.
        if (args.namespace !== SESSION) return undefined;
        const spec = args.path;
        if (Object.hasOwn(VIRTUAL_MODULES, spec)) return { path: spec, namespace: VIRTUAL };
        if (isFileSpec(spec)) return resolveSessionFile(files, EXTENSIONS, args, SESSION);
        if (SHIPPED.test(spec)) {
          const resolved = await build.resolve(spec, { kind: args.kind, resolveDir: PACKAGE_ROOT });
          if (resolved.errors.length === 0) return { path: resolved.path };
          return { errors: [{ text: `"${spec}" is not part of the hono the platform ships` }] };
        }
        return {
          errors: [
            {
              text: `"${spec}" cannot be imported: a backend may import its session's files, hono, @stage/inference, @stage/compute and @stage/utils only`,
            },
          ],
        };
      });
      build.onLoad({ filter: /.*/, namespace: SESSION }, (args) => ({
        contents: files.get(args.path) ?? '',
        loader: LOADERS[extname(args.path)] ?? 'text',
      }));
      build.onLoad({ filter: /.*/, namespace: VIRTUAL }, (args) => ({
        contents: VIRTUAL_MODULES[args.path],
        loader: 'js',
      }));
    },
  };
}
