// Sandbox (issue 14): pushes of 100 small files per second, against the same files written to disk
// in this process; and the render of a 50-module React app, against esbuild called directly on
// the same files on disk with the same options, in one run.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { call, databaseUrl, load, post, root, rows, seconds, start } from './lib.mjs';

const require = createRequire(join(root, 'apps/stage/package.json'));
const { build } = require('esbuild');
const RENDERS = Number(process.env.BENCH_STAGE_RENDERS ?? 20);

/** 100 files of about 200 bytes. */
const smallFiles = () =>
  Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [
      `/app/src/file${i}.ts`,
      `export const value${i} = ${i};\n// ${'x'.repeat(160)}\n`,
    ]),
  );

/** A React app of 50 modules: each component renders the next two. */
function reactApp() {
  const files = {
    '/app/main.tsx': [
      "import { createRoot } from 'react-dom/client';",
      "import { C0 } from './components/C0';",
      "import './styles.css';",
      "createRoot(document.getElementById('root')!).render(<C0 depth={0} />);",
    ].join('\n'),
    '/app/styles.css': '.box { padding: 4px; border: 1px solid #ccc; }',
  };
  for (let i = 0; i < 48; i += 1) {
    const children = [2 * i + 1, 2 * i + 2].filter((n) => n < 48);
    files[`/app/components/C${i}.tsx`] = [
      "import { useState } from 'react';",
      ...children.map((n) => `import { C${n} } from './C${n}';`),
      `export function C${i}({ depth }: { depth: number }) {`,
      '  const [open, setOpen] = useState(depth < 3);',
      `  return (<div className="box" onClick={() => setOpen(!open)}>C${i} {open && (<>${children
        .map((n) => `<C${n} depth={depth + 1} />`)
        .join('')}</>)}</div>);`,
      '}',
    ].join('\n');
  }
  return files;
}

const p50 = (times) => times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
async function timed(n, task) {
  const times = [];
  for (let i = 0; i < n; i += 1) {
    const t = performance.now();
    await task();
    times.push(performance.now() - t);
  }
  return {
    p50: p50(times),
    p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
  };
}

export async function stage() {
  const service = await start('apps/stage/dist/main.js', {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
  });
  const base = `${service.url}/api/v1/stage`;
  const dir = mkdtempSync(join(tmpdir(), 'stage-bench-'));
  try {
    // Pushes: the same 100 files written to disk, as a dev server's folder would take them.
    const files = smallFiles();
    let writes = 0;
    const until = Date.now() + seconds * 1000;
    mkdirSync(join(dir, 'app/src'), { recursive: true });
    while (Date.now() < until) {
      await Promise.all(Object.entries(files).map(([p, c]) => writeFile(join(dir, p), c)));
      writes += 1;
    }
    const disk = { name: '100 files written to disk (fs, in process)', rps: writes / seconds };
    rows.push({ ...disk, ratio: 1 });
    console.error(`  ${disk.name}: ${Math.round(disk.rps)} pushes/s`);
    const body = JSON.stringify({ files });
    for (const connections of [1, 8]) {
      // Every connection pushes to one session: its pushes take turns on the session's row.
      const session = await call(base, 'POST', '/sessions');
      const r = await load(
        `POST /sessions/:id/push, 100 files, ${connections} connection(s)`,
        `${base}/sessions/${session.data.id}/push`,
        {
          ...post(body),
          connections,
        },
      );
      rows.push({ ...r, events: r.rps * 100, baseline: disk.name, ratio: r.rps / disk.rps });
      console.error(
        `  ${r.name}: ${Math.round(r.rps)} pushes/s (${Math.round(r.rps * 100)} files/s)`,
      );
    }

    // Renders: esbuild on disk (react from the repository's node_modules) against the service.
    const app = reactApp();
    for (const [path, content] of Object.entries(app)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    const direct = await timed(RENDERS, () =>
      build({
        entryPoints: [join(dir, 'app/main.tsx')],
        bundle: true,
        write: false,
        outdir: join(dir, 'out'),
        format: 'iife',
        platform: 'browser',
        target: 'es2020',
        jsx: 'automatic',
        minify: true,
        legalComments: 'none',
        logLevel: 'silent',
        define: { 'process.env.NODE_ENV': '"production"' },
        nodePaths: [join(root, 'node_modules')],
      }),
    );
    rows.push({
      name: 'esbuild, 50-module React app on disk',
      p50: direct.p50,
      p99: direct.p99,
      ratio: 1,
    });
    const { data } = await call(base, 'POST', '/sessions');
    await call(base, 'POST', `/sessions/${data.id}/push`, { files: app });
    const served = await timed(RENDERS, () =>
      call(base, 'POST', `/sessions/${data.id}/render`, { entry: '/app/main.tsx' }),
    );
    rows.push({
      name: 'POST /sessions/:id/render, the same app',
      p50: served.p50,
      p99: served.p99,
      baseline: 'esbuild, 50-module React app on disk',
      // Time, not throughput: the ratio is direct / served (1 would be free).
      ratio: direct.p50 / served.p50,
    });
    console.error(
      `  render p50: ${served.p50.toFixed(1)} ms, esbuild directly ${direct.p50.toFixed(1)} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
