import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BUILDS_RECORD, removeOlderBuilds } from '../vite-builds.mjs';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vite-builds-'));
  mkdirSync(join(dir, 'assets'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file as a build at `at` (ms) writes it. */
function write(name: string, at: number) {
  writeFileSync(join(dir, name), name);
  utimesSync(join(dir, name), at / 1000, at / 1000);
}
const files = () =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name !== BUILDS_RECORD)
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

const t = (minutes: number) => Date.UTC(2026, 10, 28, 12, minutes);

it('keeps the files of the build before, removes older ones, and empties a first build', async () => {
  write('assets/stale.js', t(0)); // from before any build that recorded itself
  write('index.html', t(10));
  write('assets/one.js', t(10));
  await removeOlderBuilds(dir, t(10));
  expect(files()).toEqual(['assets/one.js', 'index.html']);

  write('index.html', t(20)); // a rebuild with changed sources: new hashed names
  write('assets/two.js', t(20));
  await removeOlderBuilds(dir, t(20));
  expect(files()).toEqual(['assets/one.js', 'assets/two.js', 'index.html']);

  write('index.html', t(30));
  write('assets/three.js', t(30));
  expect(await removeOlderBuilds(dir, t(30))).toEqual([join(dir, 'assets/one.js')]);
  expect(files()).toEqual(['assets/three.js', 'assets/two.js', 'index.html']);
});

it('keeps a file written up to a second before its build started (a coarser file clock)', async () => {
  write('index.html', t(10));
  await removeOlderBuilds(dir, t(10));
  write('assets/early.js', t(20) - 900);
  await removeOlderBuilds(dir, t(20));
  await removeOlderBuilds(dir, t(30));
  expect(files()).toEqual(['assets/early.js']);
});

it('treats a missing or unreadable record as a first build, and an absent folder as empty', async () => {
  write('index.html', t(10));
  writeFileSync(join(dir, BUILDS_RECORD), 'not json');
  write('assets/new.js', t(20));
  await removeOlderBuilds(dir, t(20));
  expect(files()).toEqual(['assets/new.js']);
  expect(await removeOlderBuilds(join(dir, 'absent'), t(30))).toEqual([]);
  expect(readdirSync(dir)).not.toContain('absent');
});
