#!/usr/bin/env node
// Draws the extension's icon (images/icon.png, 128×128 RGBA) from shapes, so that it is made by code in
// the repository: `npm run icon`. A dark rounded square; a "V" of two strokes, the tool declaration the
// extension checks; under its point a small amber dot, what the model sees. Anti-aliased by 4×4
// supersampling of signed distances; PNG written with node:zlib (deflate, CRC-32). Deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4;
const BACKGROUND = [0x14, 0x20, 0x2e];
const STROKE_TOP = [0x5e, 0xea, 0xd4];
const STROKE_BOTTOM = [0x2d, 0x9c, 0xdb];
const DOT = [0xf5, 0xb9, 0x42];

/** Distance from p to the segment a–b. */
function segment(px, py, ax, ay, bx, by) {
  const dx = bx - ax, dy = by - ay;
  const h = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - dx * h, py - ay - dy * h);
}

/** Signed distance to a rounded square centred in the icon (negative inside). */
function roundedSquare(px, py, half, radius) {
  const qx = Math.abs(px - SIZE / 2) - half + radius, qy = Math.abs(py - SIZE / 2) - half + radius;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);

/** The colour and coverage of one sample point. */
function sample(x, y) {
  if (roundedSquare(x, y, 60, 24) > 0) return null;
  let color = BACKGROUND;
  // The V: two round-capped strokes meeting at the bottom.
  const v = Math.min(segment(x, y, 34, 30, 64, 86), segment(x, y, 94, 30, 64, 86)) - 9;
  if (v <= 0) color = mix(STROKE_TOP, STROKE_BOTTOM, Math.max(0, Math.min(1, (y - 30) / 56)));
  if (Math.hypot(x - 64, y - 104) - 7 <= 0) color = DOT;
  return color;
}

export function renderIcon() {
  const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
  for (let y = 0; y < SIZE; y++) {
    raw[y * (SIZE * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < SIZE; x++) {
      let r = 0, g = 0, b = 0, covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const c = sample(x + (sx + 0.5) / SAMPLES, y + (sy + 0.5) / SAMPLES);
          if (!c) continue;
          r += c[0]; g += c[1]; b += c[2]; covered++;
        }
      }
      const at = y * (SIZE * 4 + 1) + 1 + x * 4;
      if (covered > 0) {
        raw[at] = Math.round(r / covered);
        raw[at + 1] = Math.round(g / covered);
        raw[at + 2] = Math.round(b / covered);
        raw[at + 3] = Math.round((255 * covered) / (SAMPLES * SAMPLES));
      }
    }
  }
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ICON_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'images', 'icon.png');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(path.dirname(ICON_FILE), { recursive: true });
  fs.writeFileSync(ICON_FILE, renderIcon());
  console.log(`wrote ${path.relative(process.cwd(), ICON_FILE)}`);
}
