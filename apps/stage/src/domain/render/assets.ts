import { extname, posix } from 'node:path';
import type { Loader, OnResolveArgs, OnResolveResult, Plugin } from 'esbuild';
import { contentType, isBinaryType } from '../paths.js';
import type { SessionFiles } from './session-paths.js';

/**
 * Assets (images, fonts, media, any binary file) imported by a page's code or named by url() in
 * its CSS, as Vite does it: the import yields a URL. Files under INLINE_LIMIT bytes become data:
 * URLs (images and fonts: the page's CSP takes data: for those); the others are served by the page
 * itself from the session (`<page root>/<path>`), so their URL is relative to the page's root. The
 * bundle is served at `<page root>/__render/bundle.js` (and .css): CSS url()s are relative to it,
 * and JS imports join the page root worked out from the script's own address.
 */

/** Files smaller than this (bytes) are inlined as data: URLs: Vite's default assetsInlineLimit. */
export const INLINE_LIMIT = 4096;

/** The folder below the page root the bundle is served from (routes/pages.ts). */
const BUNDLE_DIR = '__render';

/** The module whose default export is the page root's URL (ending with /). */
const PAGE_BASE = 'stage:page-base';
const BASE_NAMESPACE = 'stage-page-base';

// Evaluated when the bundle starts (document.currentScript is the bundle's script then); a module
// evaluated later (a require() inside a function) finds the script by its address.
const BASE_MODULE = `
var d = typeof document === 'undefined' ? null : document;
var s = d && (d.currentScript || Array.prototype.find.call(d.scripts, function (e) {
  return /\\/${BUNDLE_DIR}\\/bundle\\.js(\\?|$)/.test(e.src);
}));
export default s && s.src ? new URL('../', s.src).href : '/';
`;

/**
 * Loaders of the files esbuild reads itself: an npm package's images and fonts (its CSS url()s,
 * its imports) become data: URLs, as only session files are served by the page.
 */
export const PACKAGE_ASSET_LOADERS: Record<string, Loader> = Object.fromEntries(
  ['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.ico', '.bmp', '.svg']
    .concat(['.woff', '.woff2', '.ttf', '.otf'])
    .map((ext) => [ext, 'dataurl']),
);

/** The folder the page is served from: the nearest one above the entry with an index.html. */
export function pageRoot(entry: string, files: ReadonlyMap<string, unknown>): string {
  for (let dir = posix.dirname(entry); ; dir = posix.dirname(dir)) {
    if (files.has(posix.join(dir, 'index.html'))) return dir;
    if (dir === '/') return posix.dirname(entry);
  }
}

/** Whether a session file is imported as a URL: a binary type, an SVG, or bytes that are not code. */
function isAsset(path: string, content: string | Uint8Array, modules: ReadonlySet<string>) {
  const ext = extname(path).toLowerCase();
  if (ext === '.svg' || isBinaryType(path)) return true;
  return typeof content !== 'string' && !modules.has(ext);
}

const bytesOf = (content: string | Uint8Array) =>
  typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);

/** Where a page finds the file `path`: a data: URL, or its path below the root (URI-escaped). */
function located(
  path: string,
  content: string | Uint8Array,
  root: string,
): { dataUrl: string } | { below: string } | { error: string } {
  const bytes = bytesOf(content);
  const type = contentType(path, typeof content !== 'string');
  const inlinable = /^(image|font)\//.test(type);
  const below = root === '/' ? path.slice(1) : path.slice(root.length + 1);
  const served = path.startsWith(root === '/' ? '/' : `${root}/`);
  if (inlinable && (bytes.length < INLINE_LIMIT || !served))
    return { dataUrl: `data:${type.split(';')[0]};base64,${bytes.toString('base64')}` };
  if (!served)
    return {
      error: `${path} is outside the page's folder ${root}: the page cannot load it (move it under ${root})`,
    };
  return { below: below.split('/').map(encodeURIComponent).join('/') };
}

const schemeOrFragment = /^([a-z][a-z0-9+.-]*:|\/\/|#)/i;

/** url() in a session stylesheet: a session file it names becomes a URL the page can load. */
function cssUrl(args: OnResolveArgs, files: SessionFiles, root: string): OnResolveResult {
  const spec = args.path;
  // Other sites, data: URLs, fragments, and what is not a session file (a public/ file at the
  // page's root, say): kept as written.
  if (schemeOrFragment.test(spec)) return { path: spec, external: true };
  const cut = spec.search(/[?#]/);
  const [name, suffix] = cut === -1 ? [spec, ''] : [spec.slice(0, cut), spec.slice(cut)];
  const path = name.startsWith('/') ? posix.normalize(name) : posix.join(posix.dirname(args.importer), name); // prettier-ignore
  const content = files.get(path);
  if (content === undefined) return { path: spec, external: true };
  const where = located(path, content, root);
  if ('error' in where) return { errors: [{ text: where.error }] };
  return {
    path: 'dataUrl' in where ? where.dataUrl : `../${where.below}${suffix}`,
    external: true,
  };
}

/**
 * The page bundle's assets, before the session-files plugin (whose `namespace` the session files
 * are in): url() in the session's CSS, and each asset imported by its code as a module answering
 * the asset's URL. Files of the extensions in `modules` (code, CSS, JSON, text) are not assets.
 */
export function pageAssets(
  files: SessionFiles,
  root: string,
  options: { namespace: string; modules: readonly string[] },
): Plugin {
  const { namespace } = options;
  const modules = new Set(options.modules);
  return {
    name: 'page-assets',
    setup(build) {
      build.onResolve({ filter: /.*/, namespace }, (args) =>
        args.kind === 'url-token' ? cssUrl(args, files, root) : undefined,
      );
      build.onResolve({ filter: /^stage:page-base$/, namespace }, () => ({
        path: PAGE_BASE,
        namespace: BASE_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: BASE_NAMESPACE }, () => ({
        contents: BASE_MODULE,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace }, (args) => {
        const content = files.get(args.path);
        if (content === undefined || !isAsset(args.path, content, modules)) return undefined;
        const where = located(args.path, content, root);
        if ('error' in where) return { errors: [{ text: where.error }] };
        return {
          contents:
            'dataUrl' in where
              ? `export default ${JSON.stringify(where.dataUrl)};`
              : `import base from ${JSON.stringify(PAGE_BASE)};\nexport default base + ${JSON.stringify(where.below)};`,
          loader: 'js',
        };
      });
    },
  };
}
