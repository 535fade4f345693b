import { npmStage, type NpmStage } from './npm-helpers';
import { localRegistry, made, tarball, type LocalRegistry } from './npm-registry';

// An npm package's own images and fonts (its CSS url()s, its imports of a .png) become data:
// URLs in the render: the page serves the session's files only (issue 32).

let registry: LocalRegistry;
let s: NpmStage;
beforeAll(async () => {
  registry = await localRegistry([]);
  const json = { name: 'asset-pack', version: '1.0.0', main: 'index.js' };
  registry.publish(
    made('asset-pack', '1.0.0', tarball([
      { path: 'package/package.json', data: JSON.stringify(json) },
      { path: 'package/index.js', data: "import logo from './logo.png';\nexport default logo;\n" },
      { path: 'package/logo.png', data: 'not really a png' },
      { path: 'package/style.css', data: '@font-face { font-family: P; src: url(./files/p.woff2) format("woff2"); }\n' }, // prettier-ignore
      { path: 'package/files/p.woff2', data: 'wOF2 bytes' },
    ])), // prettier-ignore
  );
  s = await npmStage(registry.url);
});
afterAll(async () => {
  await s.close();
  await registry.close();
});

describe("an npm package's assets", () => {
  it('are inlined as data: URLs', async () => {
    const res = await s.render(
      {
        '/app/main.ts':
          "import logo from 'asset-pack';\nimport 'asset-pack/style.css';\nconsole.log(logo);\n",
      },
      { entry: '/app/main.ts' },
    );
    expect(res.body).toMatchObject({ success: true });
    const { js, css } = await s.output(res.id);
    // esbuild writes text-like bytes as they are, others in base64.
    expect(js).toMatch(/"data:image\/png(;base64)?,[^"]+"/);
    expect(css).toMatch(/url\("?data:font\/woff2(;base64)?,[^)]+\)/);
    expect(js).not.toContain('logo.png');
    expect(css).not.toContain('p.woff2');
  });
});
