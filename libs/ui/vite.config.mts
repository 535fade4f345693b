import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin, UserConfig } from 'vite';
import { olderBuildsRemoved } from './vite-builds.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const TOKENS = 'virtual:platform-tokens.css';

/**
 * The platform's design tokens as a stylesheet: the palette service's CSS export of its default
 * set (light, and dark under `[data-theme="dark"]` or the system's preference).
 */
function tokens(): Plugin {
  return {
    name: 'platform-tokens',
    resolveId: (id) => (id === TOKENS ? `\0${TOKENS}` : undefined),
    load(id) {
      if (id !== `\0${TOKENS}`) return undefined;
      const palette = createRequire(import.meta.url)('@platform/palette') as {
        defaultTokensCss(): string;
      };
      return palette.defaultTokensCss();
    },
  };
}

/**
 * How every web UI builds: React, the kit and the browser client from source, served under
 * `/<service>/` by the gateway (the dashboard at `/`), into the app's `web/dist`, where the
 * previous build's files stay (a running platform may still serve them: see vite-builds.ts).
 */
export function webConfig(service: string | null): UserConfig {
  return {
    base: service ? `/${service}/` : '/',
    plugins: [react(), tokens(), olderBuildsRemoved()],
    resolve: {
      alias: {
        '@platform/ui': resolve(root, 'libs/ui/src/index.ts'),
        '@platform/client/browser': resolve(root, 'libs/client/src/browser.ts'),
      },
    },
    build: { outDir: 'dist', emptyOutDir: false, chunkSizeWarningLimit: 2000 },
    logLevel: 'warn',
  };
}
