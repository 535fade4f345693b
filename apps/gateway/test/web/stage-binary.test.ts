import { deflateSync } from 'node:zlib';
import { expectCleanPage, webTest } from './harness';

// The sandbox UI and binary files (issue 32): an image is previewed, other bytes are told as
// such with their size; neither opens in the text editor.

const web = webTest();

/** A real 24 x 16 PNG (a blue rectangle): signature, IHDR, IDAT, IEND with their CRCs. */
function png(width: number, height: number): Buffer {
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.alloc(width * 3, Buffer.from([30, 90, 200])),
  ]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('binary files in the sandbox UI', () => {
  it('previews an image, tells other bytes by their size, and opens neither in the editor', async () => {
    const logo = png(24, 16);
    const font = Buffer.from([0, 1, 0, 0, 0, 10, 0, 0x80, 0, 3, 0, 0x20]);
    const session = await web.client.stage.createSession({ body: {} });
    const files = {
      '/app/main.tsx': 'export {};\n',
      '/app/logo.png': { content: logo.toString('base64'), encoding: 'base64' },
      '/app/fonts/a.woff2': { content: font.toString('base64'), encoding: 'base64' },
    };
    // The generated client knows the spec's text-only form; the object form is the extension.
    await web.client.stage.pushFiles({
      path: { id: session.id },
      body: { files: files as unknown as Record<string, string> },
    });

    const opened = await web.open(`/stage/sessions/${session.id}?file=/app/logo.png`);
    const { page } = opened;
    const image = page.getByRole('img', { name: 'Preview of /app/logo.png' });
    await image.waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.stage-binary img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([24, 16]); // prettier-ignore
    await page.getByText(`Binary file, ${logo.length} bytes`).waitFor();
    expect(await page.getByRole('textbox', { name: 'Contents of /app/logo.png' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await expectCleanPage(opened, 'stage-binary-image');

    await page
      .getByRole('navigation', { name: 'Files' })
      .getByRole('button', { name: 'a.woff2' })
      .click();
    await page.getByText(`Binary file, ${font.length} bytes: it cannot be shown or edited here`).waitFor(); // prettier-ignore
    expect(await page.getByRole('img', { name: /^Preview of/ }).count()).toBe(0);

    // A text file still opens in the editor.
    await page
      .getByRole('navigation', { name: 'Files' })
      .getByRole('button', { name: 'main.tsx' })
      .click();
    await page.getByRole('textbox', { name: 'Contents of /app/main.tsx' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
  });
});
