import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import type { ImportKind, OnResolveArgs, OnResolveResult, PluginBuild } from 'esbuild';
import { packageOf } from './lock.js';

/** Marks a resolve asked by this module: esbuild's own resolution answers it. */
const DEFAULT = { npm: 'default' };

type Resolve = (spec: string, kind: ImportKind, build: PluginBuild) => Promise<OnResolveResult>;

/** What an app's bare imports need (given by the render or the backend build): see NpmPackages. */
export type Install = (imports: readonly string[]) => Promise<{ root: string; lock: string | null }>; // prettier-ignore

/**
 * How a bundle resolves npm packages. A first pass (`scanning`) only reads the app's files and
 * records the packages they import (those and the platform's are left out: it is cheap); they
 * are installed; the second pass, the bundle, resolves them in the installed tree, where esbuild resolves as in any project (exports, module, main,
 * browser fields) but every import must stay inside the tree: a package reaches its own files and
 * its dependencies, and the platform's `shipped` packages (react, hono), never other files of the
 * server's disk.
 */
export class Packages {
  /** Package names the app's files import (filled by the scanning pass). */
  readonly imports = new Set<string>();
  private root: string | null = null;
  private scanned = false;

  constructor(
    /** Platform packages by import (e.g. react/...), resolved to the platform's copies. */
    private readonly isShipped: (spec: string) => boolean,
    private readonly shipped: Resolve,
  ) {}

  get scanning() {
    return !this.scanned;
  }

  /** Installs what the scan found (nothing when it found none); the lock to keep, if it changed. */
  async install(install: Install): Promise<string | null> {
    this.scanned = true;
    if (this.imports.size === 0) return null;
    const installed = await install([...this.imports].sort());
    this.root = (await realpath(installed.root)) + sep;
    return installed.lock;
  }

  /** Whether a resolve was asked by this module (the plugin must then answer undefined). */
  static own(args: OnResolveArgs) {
    return args.pluginData === DEFAULT;
  }

  /** A bare import of the app's own files (one notAPackage lets through), not the platform's. */
  async fromApp(spec: string, args: OnResolveArgs, build: PluginBuild): Promise<OnResolveResult> {
    if (this.scanning) {
      this.imports.add(packageOf(spec)!);
      return { path: spec, external: true };
    }
    return this.contained(spec, args.kind, this.root!, build, 'the app');
  }

  /** An import made by a file of an installed package; undefined for any other importer. */
  async fromPackage(args: OnResolveArgs, build: PluginBuild) {
    if (this.root === null || !args.importer.startsWith(this.root)) return undefined;
    if (this.isShipped(args.path)) return this.shipped(args.path, args.kind, build);
    const by = relative(this.root, args.importer).split(sep).join('/');
    return this.contained(args.path, args.kind, args.resolveDir, build, by);
  }

  /** A package file's place in messages: `node_modules/debug/src/browser.js`, never a server path. */
  where(file: string): string | null {
    return this.root && file.startsWith(this.root) ? file.slice(this.root.length).split(sep).join('/') : null; // prettier-ignore
  }

  private async contained(
    spec: string,
    kind: ImportKind,
    resolveDir: string,
    build: PluginBuild,
    by: string,
  ): Promise<OnResolveResult> {
    const root = this.root!;
    const found = await build.resolve(spec, { kind, resolveDir, pluginData: DEFAULT });
    if (found.errors.length > 0)
      return { errors: found.errors.map((e) => ({ text: `${e.text} (imported by ${by})` })) };
    // A module a package's browser field turns off, or something left out: as esbuild says.
    if (found.external || found.namespace !== 'file' || found.path === '') return found;
    if (!found.path.startsWith(root))
      return {
        errors: [
          {
            text: `"${spec}" (imported by ${by}) is outside the app's npm packages: a package may import its own files and its dependencies only`,
          },
        ],
      };
    return { path: found.path, sideEffects: found.sideEffects, pluginData: found.pluginData };
  }
}
