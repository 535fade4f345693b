import { extname, join } from 'node:path';
import {
  build,
  type ImportKind,
  type Loader,
  type Message,
  type Plugin,
  type PluginBuild,
} from 'esbuild';
import { PACKAGE_ASSET_LOADERS, pageAssets, pageRoot } from './assets.js';
import { isFileSpec, resolveSessionFile, type SessionFiles } from './session-paths.js';
import type { RenderError } from '../../database/index.js';
import { notAPackage } from '../npm/lock.js';
import { Packages, type Install } from '../npm/plugin.js';
import { NpmError } from '../npm/registry.js';

/** Packages a page (and its npm packages' peers) get as this service ships them, any subpath. */
const SHIPPED = /^(react|react-dom)(\/.*)?$/;
const PACKAGE_ROOT = join(__dirname, '..', '..', '..');

const LOADERS: Record<string, Loader> = {
  '.ts': 'ts',
  '.mts': 'ts',
  '.tsx': 'tsx',
  '.js': 'jsx',
  '.mjs': 'jsx',
  '.cjs': 'jsx',
  '.jsx': 'jsx',
  '.css': 'css',
  '.json': 'json',
  '.txt': 'text',
  '.md': 'text',
  '.html': 'text',
};
/** What an import without an extension may name, in this order (as bundlers try them). */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json', '.css'];

export type Output =
  | { ok: true; js: string; css: string | null; lock: string | null }
  | { ok: false; error: RenderError };

const NAMESPACE = 'session';

/**
 * Bundles `entry` and what it imports from `files` (a session's current files by path) into one
 * script and one stylesheet. Only session files, the shipped react and react-dom and the app's
 * npm packages are reachable: relative and absolute imports resolve among the session's files,
 * other bare imports among the packages `install` gives (npm/; without it, such an import is an
 * error naming it); nothing else on the server's disk is read. `lock`: the session's new
 * /app/package-lock.json, when it changed.
 */
export async function bundle(
  entry: string,
  files: SessionFiles,
  install?: Install,
): Promise<Output> {
  if (!files.has(entry))
    return {
      ok: false,
      error: {
        message: `The entry ${entry} is not a file of the session`,
        file: null,
        line: null,
        column: null,
      },
    };
  if (
    !LOADERS[extname(entry)] ||
    ['.css', '.json', '.svg', '.txt', '.md', '.html'].includes(extname(entry))
  )
    return {
      ok: false,
      error: {
        message: `The entry ${entry} must be a script (.ts, .tsx, .js, .jsx or .mjs)`,
        file: null,
        line: null,
        column: null,
      },
    };
  const packages = install ? new Packages((spec) => SHIPPED.test(spec), shipped) : undefined;
  const run = () =>
    build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      outdir: '/out',
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      jsx: 'automatic',
      // The scan is only read: no need to make it small.
      minify: !packages?.scanning,
      legalComments: 'none',
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      // Images and fonts of npm packages; the session's own: pageAssets.
      loader: PACKAGE_ASSET_LOADERS,
      plugins: [
        // Images, fonts and other files imported or named by url(): render/assets.ts.
        pageAssets(files, pageRoot(entry, files), {
          namespace: NAMESPACE,
          modules: Object.keys(LOADERS),
        }),
        sessionFiles(files, packages),
      ],
    });
  try {
    let result = await run();
    let lock: string | null = null;
    // That pass found the npm packages the app imports: installed, then the bundle itself.
    if (packages) {
      lock = await packages.install(install!);
      result = await run();
    }
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
    return { ok: true, js: js?.text ?? '', css: css?.text ?? null, lock };
  } catch (error) {
    if (error instanceof NpmError)
      return { ok: false, error: { message: error.message, file: null, line: null, column: null } }; // prettier-ignore
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    // Only the session's own files are named: never a path on the server.
    const at = first.location?.file.startsWith(`${NAMESPACE}:`) ? first.location : null;
    const inPackage = first.location && packages?.where(first.location.file);
    return {
      ok: false,
      error: {
        message: inPackage ? `${first.text} (in ${inPackage})` : first.text,
        file: at ? at.file.slice(NAMESPACE.length + 1) : null,
        line: at?.line ?? null,
        // esbuild counts columns from 0; editors and compilers from 1.
        column: at ? at.column + 1 : null,
      },
    };
  }
}

/** react and react-dom (any subpath) as the platform ships them. */
async function shipped(spec: string, kind: ImportKind, build: PluginBuild) {
  const found = await build.resolve(spec, { kind, resolveDir: PACKAGE_ROOT });
  if (found.errors.length === 0) return { path: found.path };
  return { errors: [{ text: `"${spec}" is not part of the react and react-dom the platform ships` }] }; // prettier-ignore
}

function sessionFiles(files: SessionFiles, packages: Packages | undefined): Plugin {
  return {
    name: 'session-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (Packages.own(args)) return undefined;
        if (args.kind === 'entry-point') return { path: args.path, namespace: NAMESPACE };
        // Inside react and react-dom, esbuild resolves as usual; inside npm packages, in their tree.
        if (args.namespace !== NAMESPACE) return packages?.fromPackage(args, build);
        const spec = args.path;
        // url() of a stylesheet is pageAssets'; an @import of another site stays as written.
        if (args.kind === 'import-rule' && /^(https?:|data:)/.test(spec))
          return { path: spec, external: true };
        if (isFileSpec(spec)) return resolveSessionFile(files, EXTENSIONS, args, NAMESPACE);
        const refusal = notAPackage(spec);
        if (refusal) return { errors: [{ text: refusal }] };
        if (SHIPPED.test(spec))
          return packages?.scanning
            ? { path: spec, external: true }
            : shipped(spec, args.kind, build);
        if (packages) return packages.fromApp(spec, args, build);
        return {
          errors: [
            {
              text: `"${spec}" cannot be imported: a session may import its own files, react and react-dom only`,
            },
          ],
        };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: files.get(args.path) ?? '',
        loader: LOADERS[extname(args.path)] ?? 'text',
      }));
    },
  };
}
