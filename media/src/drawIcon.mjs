// Draws media/icon.png (128x128 RGBA) and media/icon.svg: three catalog entities joined by
// relations on a dark tile. Plain Node (zlib for the PNG's IDAT), so the icon can be redrawn
// without an image editor:  node media/src/drawIcon.mjs
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4; // supersampling per axis, for smooth edges
const media = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const TILE = { color: [31, 42, 68], radius: 26 };
const NODES = [
  { x: 64, y: 38, r: 15, color: [251, 191, 36] },
  { x: 34, y: 90, r: 12, color: [45, 212, 191] },
  { x: 94, y: 90, r: 12, color: [45, 212, 191] },
];
const EDGES = [
  { from: 0, to: 1, width: 6, color: [148, 233, 220] },
  { from: 0, to: 2, width: 6, color: [148, 233, 220] },
  { from: 1, to: 2, width: 4, color: [94, 120, 160] },
];

function insideTile(x, y) {
  const r = TILE.radius;
  const cx = Math.min(Math.max(x, r), SIZE - r);
  const cy = Math.min(Math.max(y, r), SIZE - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function distanceToSegment(x, y, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy));
}

/** The colour at one sample point, or null outside the tile. */
function sample(x, y) {
  if (!insideTile(x, y)) return null;
  let color = TILE.color;
  for (const e of EDGES) if (distanceToSegment(x, y, NODES[e.from], NODES[e.to]) <= e.width / 2) color = e.color;
  for (const n of NODES) {
    const d = Math.hypot(x - n.x, y - n.y);
    if (d <= n.r) color = d >= n.r - 3 ? [255, 255, 255] : n.color;
  }
  return color;
}

function drawPng() {
  const rows = [];
  for (let py = 0; py < SIZE; py++) {
    const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
    for (let px = 0; px < SIZE; px++) {
      const sum = [0, 0, 0];
      let hits = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const c = sample(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
          if (!c) continue;
          hits++;
          for (let i = 0; i < 3; i++) sum[i] += c[i];
        }
      }
      const o = 1 + px * 4;
      if (hits) for (let i = 0; i < 3; i++) row[o + i] = Math.round(sum[i] / hits);
      row[o + 3] = Math.round((255 * hits) / (SAMPLES * SAMPLES));
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function drawSvg() {
  const rgb = (c) => `rgb(${c.join(',')})`;
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">`,
    `  <rect width="${SIZE}" height="${SIZE}" rx="${TILE.radius}" fill="${rgb(TILE.color)}"/>`,
    ...EDGES.map((e) => `  <line x1="${NODES[e.from].x}" y1="${NODES[e.from].y}" x2="${NODES[e.to].x}" y2="${NODES[e.to].y}" stroke="${rgb(e.color)}" stroke-width="${e.width}" stroke-linecap="round"/>`),
    ...NODES.map((n) => `  <circle cx="${n.x}" cy="${n.y}" r="${n.r - 1.5}" fill="${rgb(n.color)}" stroke="#fff" stroke-width="3"/>`),
    '</svg>',
  ];
  return `${lines.join('\n')}\n`;
}

writeFileSync(path.join(media, 'icon.png'), drawPng());
writeFileSync(path.join(media, 'icon.svg'), drawSvg());
console.log(`wrote ${path.join(media, 'icon.png')} and icon.svg`);
