import { useService } from '@platform/testing';
import { png } from './binary-fixtures';
import { backendsUnderTest } from './backends-helpers';

// A backend imports the session's binary files as bytes (a Uint8Array), as esbuild's binary
// loader gives them (issue 32).

const b = useService(backendsUnderTest, { scope: 'all' });

const LOGO = png(8, 8, true);

const BACKEND = `
import { Hono } from 'hono';
import logo from '../logo.png';
import blob from './data.bin';
const app = new Hono();
app.get('/logo', (c) => c.body(logo, 200, { 'content-type': 'image/png' }));
app.get('/sizes', (c) => c.json({ logo: logo.length, bytes: logo instanceof Uint8Array, blob: [...blob] }));
export default app;
`;

describe('binary files in a backend', () => {
  it('imports an image and other bytes as a Uint8Array, and can answer with them', async () => {
    const { sid, session } = await b.publish({ '/app/api/index.ts': BACKEND });
    await b.api('POST', `/sessions/${session}/push`, {
      files: {
        '/app/logo.png': { content: LOGO.toString('base64'), encoding: 'base64' },
        '/app/api/data.bin': { content: Buffer.from([0, 255, 1]).toString('base64'), encoding: 'base64' }, // prettier-ignore
      },
    });
    const sizes = await b.call(sid, '/sizes');
    expect([sizes.status, sizes.json()]).toEqual([
      200,
      { logo: LOGO.length, bytes: true, blob: [0, 255, 1] },
    ]);
    const logo = await b.call(sid, '/logo');
    expect([logo.status, logo.headers['content-type']]).toEqual([200, 'image/png']);
    expect(logo.raw.equals(LOGO)).toBe(true);
  });
});
