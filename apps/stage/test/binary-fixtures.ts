import { deflateSync } from 'node:zlib';

// Small real binary files, made here rather than committed: a PNG (zlib and CRC-32 as the PNG
// specification says) and a TrueType font that Chromium's font sanitizer (OTS) accepts.

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An RGB PNG of `width` x `height` pixels. With `noise`, the pixels are pseudo-random (the file
 * hardly compresses: a PNG well over 4 KB), else a red square.
 */
export function png(width: number, height: number, noise = false): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      rows.set(noise ? [next(), next(), next()] : [255, 0, 0], y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Big-endian fields: [bytes, value] pairs (negative values as two's complement). */
function fields(...parts: Array<[number, number]>): Buffer {
  const out = Buffer.alloc(parts.reduce((n, [size]) => n + size, 0));
  let at = 0;
  for (const [size, value] of parts) {
    if (size === 2) out.writeUInt16BE(value & 0xffff, at);
    else out.writeUInt32BE(value >>> 0, at);
    at += size;
  }
  return out;
}

const u16 = (...values: number[]) => fields(...values.map((v) => [2, v] as [number, number]));
const u32 = (...values: number[]) => fields(...values.map((v) => [4, v] as [number, number]));
const pad4 = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);

function checksum(b: Buffer): number {
  const padded = pad4(b);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

function nameTable(family: string): Buffer {
  const names: Array<[number, string]> = [
    [1, family],
    [2, 'Regular'],
    [3, `${family} Regular`],
    [4, `${family} Regular`],
    [5, 'Version 1.0'],
    [6, `${family}-Regular`],
  ];
  const strings = names.map(([, text]) => Buffer.from(text, 'utf16le').swap16());
  let offset = 0;
  const records = names.map(([id], i) => {
    const record = u16(3, 1, 0x409, id, strings[i].length, offset);
    offset += strings[i].length;
    return record;
  });
  return Buffer.concat([u16(0, names.length, 6 + 12 * names.length), ...records, ...strings]);
}

/** A TrueType font named `family` with one glyph, a square, for "A". */
export function ttf(family = 'StageTest'): Buffer {
  // The square: one contour of 4 on-curve points, coordinates as 16-bit deltas.
  const square = Buffer.concat([
    u16(1, 0, 0, 500, 500), // contours, xMin, yMin, xMax, yMax
    u16(3, 0), // last point of the contour, no instructions
    Buffer.from([1, 1, 1, 1]), // on curve
    u16(0, 500, 0, -500), // x
    u16(0, 0, 500, 0), // y
  ]);
  const glyf = pad4(square);
  const tables: Record<string, Buffer> = {
    'OS/2': Buffer.concat([
      u16(4, 500, 400, 5, 0), // version, xAvgCharWidth, weight, width, fsType
      u16(650, 700, 0, 140, 650, 700, 0, 480, 50, 250), // sub/superscript sizes and offsets, strikeout
      u16(0), // family class
      Buffer.alloc(10), // panose
      u32(1, 0, 0, 0), // unicode ranges (Basic Latin)
      Buffer.from('NONE', 'latin1'),
      u16(0x40, 0x41, 0x41), // fsSelection regular, first and last character
      u16(800, -200 & 0xffff, 0, 800, 200), // typo ascender, descender, gap, win ascent, descent
      u32(1, 0), // code page ranges (Latin 1)
      u16(500, 700, 0, 0x41, 0), // x height, cap height, default and break characters, context
    ]),
    cmap: Buffer.concat([
      u16(0, 1, 3, 1),
      u32(12),
      // Format 4, two segments: "A" to glyph 1, and the closing 0xFFFF.
      u16(4, 32, 0, 4, 4, 1, 0),
      u16(0x41, 0xffff, 0, 0x41, 0xffff, (1 - 0x41) & 0xffff, 1, 0, 0),
    ]),
    glyf,
    head: Buffer.concat([
      u32(0x00010000, 0x00010000, 0, 0x5f0f3cf5),
      u16(0x000b, 1000),
      Buffer.alloc(16), // created, modified
      u16(0, 0, 500, 500, 0, 8, 2, 0, 0), // bbox, macStyle, lowest ppem, direction, short loca, format
    ]),
    hhea: Buffer.concat([
      u32(0x00010000),
      u16(800, -200 & 0xffff, 0, 500, 0, 0, 500, 1, 0, 0, 0, 0, 0, 0, 0, 2),
    ]),
    hmtx: u16(500, 0, 500, 0),
    loca: u16(0, 0, square.length / 2),
    maxp: Buffer.concat([u32(0x00010000), u16(2, 4, 1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0)]),
    name: nameTable(family),
    post: Buffer.concat([u32(0x00030000, 0), u16(-100 & 0xffff, 50), u32(0, 0, 0, 0, 0)]),
  };
  const tags = Object.keys(tables).sort();
  const n = tags.length;
  const power = 2 ** Math.floor(Math.log2(n));
  const header = u16(0x0001, 0x0000, n, power * 16, Math.log2(power), n * 16 - power * 16);
  // sfnt version 1.0 is 0x00010000: the first two fields above.
  let offset = 12 + 16 * n;
  const records: Buffer[] = [];
  const bodies: Buffer[] = [];
  for (const tag of tags) {
    const body = tables[tag];
    records.push(Buffer.concat([Buffer.from(tag, 'latin1'), u32(checksum(body), offset, body.length)])); // prettier-ignore
    bodies.push(pad4(body));
    offset += pad4(body).length;
  }
  const font = Buffer.concat([header, ...records, ...bodies]);
  // head.checkSumAdjustment: what makes the whole font sum to 0xB1B0AFBA.
  const headAt = 12 + 16 * n + bodies.slice(0, tags.indexOf('head')).reduce((s, b) => s + b.length, 0); // prettier-ignore
  font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}
