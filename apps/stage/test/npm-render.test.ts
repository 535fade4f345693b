import { Script } from 'node:vm';
import { launchBrowser } from '@platform/testing';
import type { Browser } from 'playwright-core';
import { oneDatabaseTwice } from '@platform/testing';
import { cachedPackages, npmStage, type NpmStage } from './npm-helpers';
import { fixtures, localRegistry, type LocalRegistry } from './npm-registry';

// A small React app as one is written in the open (a todo list: a zustand store, clsx class
// names, a stylesheet), rendered from a local npm registry serving the real tarballs.
const TODO_APP = {
  '/app/package.json': JSON.stringify({
    name: 'todo',
    private: true,
    type: 'module',
    scripts: { dev: 'vite' },
    dependencies: { clsx: '^2.1.0', react: '^19.0.0', 'react-dom': '^19.0.0', zustand: '^5.0.0' },
    devDependencies: { typescript: '^5.9.0', vite: '^8.0.0' },
  }),
  '/app/index.html': '<div id="root"></div><script type="module" src="./main.tsx"></script>',
  '/app/main.tsx': `import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
createRoot(document.getElementById('root')!).render(<App />);`,
  '/app/store.ts': `import { create } from 'zustand';
export interface Todo { id: number; title: string; done: boolean }
interface Todos { todos: Todo[]; toggle(id: number): void }
export const useTodos = create<Todos>()((set) => ({
  todos: [{ id: 1, title: 'Write the app', done: true }, { id: 2, title: 'Pin its packages', done: false }],
  toggle: (id) => set((s) => ({ todos: s.todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t)) })),
}));`,
  '/app/App.tsx': `import clsx from 'clsx';
import { useTodos } from './store';
export function App() {
  const { todos, toggle } = useTodos();
  const left = todos.filter((t) => !t.done).length;
  return (
    <main>
      <ul>{todos.map((t) => (
        <li key={t.id} className={clsx('todo', { done: t.done })} onClick={() => toggle(t.id)}>{t.title}</li>
      ))}</ul>
      <p className={clsx('count', left === 0 && 'all-done')}>{left} left</p>
    </main>
  );
}`,
  '/app/styles.css':
    '.todo.done { text-decoration: line-through; }\n.all-done { color: rgb(0, 128, 0); }',
};

let registry: LocalRegistry;
let dbs: Awaited<ReturnType<typeof oneDatabaseTwice>>;
let one: NpmStage;
let browser: Browser;
beforeAll(async () => {
  registry = await localRegistry();
  dbs = await oneDatabaseTwice();
  one = await npmStage(registry.url, {}, dbs.first);
  browser = await launchBrowser();
  // The same app without its packages (react only): esbuild started, and the figure to compare.
  const { '/app/package.json': _, ...plain } = TODO_APP;
  const bare = {
    ...plain,
    '/app/store.ts': 'export const useTodos = () => ({ todos: [], toggle: (id: number) => id });',
    '/app/App.tsx': plain['/app/App.tsx'].replace("import clsx from 'clsx';", 'const clsx = (...c: unknown[]) => c.filter(Boolean).join(" ");'), // prettier-ignore
  };
  await timed('no npm package (react only, esbuild started)', () => one.render(bare));
  await timed('no npm package, again', () => one.render(bare));
  registry.requests.length = 0;
});
afterAll(async () => {
  await browser?.close();
  await one.close();
  await dbs.close();
  await registry.close();
});

const published = (name: string, version: string) =>
  fixtures().find((p) => p.name === name && p.version === version)!;

/** Renders and times it (the figures of the cold and warm package caches). */
async function timed<T extends { status: number }>(label: string, run: () => Promise<T>) {
  const started = performance.now();
  const res = await run();
  console.log(`${label}: ${(performance.now() - started).toFixed(0)} ms`);
  expect(res).toMatchObject({ status: 200 });
  return res;
}

describe('a React app with npm packages', () => {
  let id: string;
  it('renders from the registry, with the packages in the bundle, and pins them in a lock', async () => {
    const res = await timed('cold package cache (registry)', () => one.render(TODO_APP));
    id = res.id;
    expect(res.body).toEqual({ success: true, data: { entry: '/app/main.tsx', version: 1 } });
    // The packuments of the app's dependencies and their tarballs; react is the platform's.
    expect([...registry.requests].sort()).toEqual([
      '/clsx',
      '/clsx/-/clsx-2.1.1.tgz',
      '/zustand',
      '/zustand/-/zustand-5.1.0.tgz',
    ]);
    const entry = (name: string, version: string) => ({
      version,
      resolved: `${registry.url}/${name}/-/${name}-${version}.tgz`,
      integrity: published(name, version).integrity,
      license: 'MIT',
    });
    expect(await one.lock(id)).toEqual({
      name: 'todo',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'todo', dependencies: { clsx: '^2.1.0', zustand: '^5.0.0' } },
        'node_modules/clsx': entry('clsx', '2.1.1'),
        'node_modules/zustand': {
          ...entry('zustand', '5.1.0'),
          peerDependencies: expect.objectContaining({ react: '>=18.0.0' }),
          peerDependenciesMeta: expect.objectContaining({ react: { optional: true } }),
        },
      },
    });
    expect(await cachedPackages(dbs.first)).toEqual(['clsx@2.1.1', 'zustand@5.1.0']);
  });

  it('works in a browser: the store, the class names and the stylesheet', async () => {
    const { js, css } = await one.output(id);
    expect(() => new Script(js)).not.toThrow();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.setContent(`<style>${css}</style><div id="root"></div>`);
    await page.addScriptTag({ content: js });
    const items = page.locator('li');
    await expect(items.nth(1).textContent()).resolves.toBe('Pin its packages');
    expect(await items.evaluateAll((li) => li.map((e) => e.className))).toEqual(['todo done', 'todo']); // prettier-ignore
    expect(await items.first().evaluate((e) => getComputedStyle(e).textDecorationLine)).toBe('line-through'); // prettier-ignore
    await items.nth(1).click();
    await expect(page.locator('p').textContent()).resolves.toBe('0 left');
    expect(await page.locator('p').getAttribute('class')).toBe('count all-done');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders again from the lock and the caches: nothing asked of the registry', async () => {
    const before = registry.requests.length;
    const { css } = await one.output(id);
    const changed = {
      '/app/styles.css': `${TODO_APP['/app/styles.css']}\nli { cursor: pointer; }`,
    };
    const res = await timed('warm package cache (this instance)', () => one.render(changed, { id })); // prettier-ignore
    expect(res.body).toMatchObject({ data: { version: 2 } });
    expect(registry.requests.length).toBe(before);
    expect((await one.output(id)).css).not.toBe(css);
  });

  it('renders on a second instance on the same database: nothing asked of the registry', async () => {
    const before = registry.requests.length;
    const two = await npmStage(registry.url, {}, dbs.second);
    try {
      const res = await timed('warm package cache (database, new instance)', () =>
        two.render(
          { '/app/App.tsx': TODO_APP['/app/App.tsx'].replace('{left} left', '{left} to do') },
          { id },
        ),
      );
      expect(res.body).toMatchObject({ data: { version: 3 } });
      expect(registry.requests.length).toBe(before);
      expect((await two.output(id)).js).toContain('to do');
    } finally {
      await two.close();
    }
  });
});
