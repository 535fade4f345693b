// Git over smart HTTP (issue 36): clone and push of a repository of 10,000 commits through the git
// service (`git http-backend` behind it), against the same git command on the same bare
// repository through the file system (file://, git's own pack protocol: the floor). Each figure
// is the median of BENCH_GIT_RUNS runs (default 3).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, databaseUrl, rows, start } from './lib.mjs';

const COMMITS = Number(process.env.BENCH_GIT_COMMITS ?? 10_000);
const RUNS = Number(process.env.BENCH_GIT_RUNS ?? 3);
const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env, stdio: 'pipe' });

/** `git fast-import` input: COMMITS commits on main, each changing one of 100 files. */
function history() {
  const parts = [];
  for (let i = 1; i <= COMMITS; i += 1) {
    const content = `line ${i}\n`.repeat(20);
    parts.push(
      'commit refs/heads/main',
      `committer Bench <bench@example.com> ${1_700_000_000 + i} +0000`,
      `data ${`Commit ${i}`.length}`,
      `Commit ${i}`,
      `M 100644 inline file${i % 100}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content,
    );
  }
  return `${parts.join('\n')}\n`;
}

async function median(task) {
  const times = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t = performance.now();
    await task(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p99: times.at(-1) };
}

function row(name, measured, baseline) {
  rows.push({
    name,
    p50: measured.p50,
    p99: measured.p99,
    ...(baseline ? { baseline: baseline.name, ratio: measured.p50 / baseline.p50 } : { ratio: 1 }),
  });
  console.error(`  ${name}: ${Math.round(measured.p50)} ms`);
  return { name, ...measured };
}

export async function gitBench() {
  const dir = mkdtempSync(join(tmpdir(), 'git-bench-'));
  try {
    const service = await start('apps/git/dist/main.js', {
      DATABASE_URL: databaseUrl,
      GIT_DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'warn',
    });
    const base = `${service.url}/api/v1/git`;
    await call(base, 'POST', '/providers', { name: 'local', type: 'local' });

    const source = join(dir, 'source.git');
    git(dir, 'init', '-q', '--bare', source);
    execFileSync('git', ['fast-import', '--quiet'], { cwd: source, env, input: history() });
    git(source, 'gc', '-q');

    // Pushes of the whole history into an empty repository: file:// against HTTP.
    const floorPush = row(
      `git push of ${COMMITS} commits, file:// (floor)`,
      await median(async (i) => {
        const target = join(dir, `floor-${i}.git`);
        git(dir, 'init', '-q', '--bare', target);
        git(source, 'push', '-q', `file://${target}`, 'main');
      }),
    );
    let pushed = '';
    row(
      `git push of ${COMMITS} commits, smart HTTP`,
      await median(async (i) => {
        await call(base, 'POST', '/repos', {
          providerId: 'local',
          owner: 'bench',
          repoName: `p${i}`,
        });
        pushed = `${service.url}/git/bench/p${i}.git`;
        git(source, 'push', '-q', pushed, 'main');
      }),
      floorPush,
    );

    // Clones: full and shallow, file:// against HTTP.
    const clone = (url, name, ...args) => git(dir, 'clone', '-q', '--bare', ...args, url, name);
    const floorClone = row(
      `git clone of ${COMMITS} commits, file:// (floor)`,
      await median((i) => clone(`file://${source}`, `fc-${i}.git`)),
    );
    row(
      `git clone of ${COMMITS} commits, smart HTTP`,
      await median((i) => clone(pushed, `hc-${i}.git`)),
      floorClone,
    );
    const floorShallow = row(
      'git clone --depth 1, file:// (floor)',
      await median((i) => clone(`file://${source}`, `fs-${i}.git`, '--depth', '1')),
    );
    row(
      'git clone --depth 1, smart HTTP',
      await median((i) => clone(pushed, `hs-${i}.git`, '--depth', '1')),
      floorShallow,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
