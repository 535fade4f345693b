import { extname, join } from 'node:path';
import { build, type Loader, type Message, type Plugin } from 'esbuild';
import { isFileSpec, resolveSessionFile } from './session-paths.js';
import type { RenderError } from '../database.js';

/** The packages a session may import by name: the versions this service ships. */
const SHIPPED = new Set([
  'react',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
  'react-dom',
  'react-dom/client',
]);
const PACKAGE_ROOT = join(__dirname, '..', '..');

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
  '.svg': 'dataurl',
  '.txt': 'text',
  '.md': 'text',
  '.html': 'text',
};
/** What an import without an extension may name, in this order (as bundlers try them). */
const EXTENSIONS = ['.tsx', '.ts', '.jsx', '.js', '.mjs', '.json', '.css'];

export type Output =
  { ok: true; js: string; css: string | null } | { ok: false; error: RenderError };

const NAMESPACE = 'session';

/**
 * Bundles `entry` and what it imports from `files` (a session's current files by path) into one
 * script and one stylesheet. Only session files and the shipped react and react-dom are
 * reachable: relative and absolute imports resolve among the session's files, and any other bare
 * import is an error naming it; nothing on the server's disk is read but those two packages.
 */
export async function bundle(entry: string, files: ReadonlyMap<string, string>): Promise<Output> {
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
  try {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      outdir: '/out',
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      jsx: 'automatic',
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [sessionFiles(files)],
    });
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const css = result.outputFiles.find((f) => f.path.endsWith('.css'));
    return { ok: true, js: js?.text ?? '', css: css?.text ?? null };
  } catch (error) {
    const first = (error as { errors?: Message[] }).errors?.[0];
    if (!first) throw error;
    // Only the session's own files are named: never a path on the server.
    const at = first.location?.file.startsWith(`${NAMESPACE}:`) ? first.location : null;
    return {
      ok: false,
      error: {
        message: first.text,
        file: at ? at.file.slice(NAMESPACE.length + 1) : null,
        line: at?.line ?? null,
        // esbuild counts columns from 0; editors and compilers from 1.
        column: at ? at.column + 1 : null,
      },
    };
  }
}

function sessionFiles(files: ReadonlyMap<string, string>): Plugin {
  return {
    name: 'session-files',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return { path: args.path, namespace: NAMESPACE };
        // Inside react and react-dom, esbuild resolves as usual.
        if (args.namespace !== NAMESPACE) return undefined;
        const spec = args.path;
        // url() of a stylesheet: fetched by the browser from the preview, relative to the page.
        if (
          args.kind === 'url-token' ||
          (args.kind === 'import-rule' && /^(https?:|data:)/.test(spec))
        )
          return { path: spec, external: true };
        if (isFileSpec(spec)) return resolveSessionFile(files, EXTENSIONS, args, NAMESPACE);
        if (SHIPPED.has(spec)) {
          try {
            return { path: require.resolve(spec, { paths: [PACKAGE_ROOT] }) };
          } catch {
            return {
              errors: [
                { text: `"${spec}" is not part of the react and react-dom the platform ships` },
              ],
            };
          }
        }
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
