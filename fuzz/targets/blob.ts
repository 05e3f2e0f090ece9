// Mutated Nippy blobs: the values the real Nippy froze (test/fixtures/state/blobs), their
// payloads re-framed as zstd frames with and without a content size, and decompression bombs,
// mutated one to four ways per case: bit flips, interesting bytes (type ids, counts, lengths that
// claim gigabytes), bytes inserted, deleted or duplicated, blobs spliced, payloads cut short.
// Each must decode to a value or a NippyError within a bounded time, and render.
import fs from 'node:fs';
import path from 'node:path';
import { NippyError, thaw } from '../../client/src/host/nippy';
import { preview, toJson } from '../../client/src/host/valueText';
import { inflateZstd, isZstdFrame } from '../../client/src/host/zstd';
import { BLOBS } from '../../test/helpers/realSqlite';
import { Block, nippyZstd, rle, zstdFrame } from '../../test/helpers/zstdFrames';
import type { Rng } from '../rng';
import type { FuzzTarget } from '../target';

interface Ctx { blobs: Uint8Array[]; payloads: Uint8Array[] }

const INTERESTING = [0, 1, 2, 3, 13, 19, 21, 25, 44, 62, 67, 68, 70, 79, 90, 96, 97, 99, 105, 0x7f, 0x80, 0x81, 0xfe, 0xff];
const HUGE = [0x7fffffff, 0x80000000, 0xffffffff, 0x40000000, 0x10000, 0x1000000];

function mutate(b: Uint8Array, ctx: Ctx, rng: Rng): Uint8Array {
  // Mostly past the 4-byte header: a broken header only ever says "not a Nippy value".
  const keep = rng.chance(0.9) && b.length > 4 && b[0] === 0x4e ? 4 : 0;
  return new Uint8Array([...b.subarray(0, keep), ...mutateBytes(b.subarray(keep), ctx, rng)]);
}

function mutateBytes(b: Uint8Array, ctx: Ctx, rng: Rng): Uint8Array {
  const a = Array.from(b);
  switch (rng.int(9)) {
    case 0: if (a.length) a[rng.int(a.length)] ^= 1 << rng.int(8); break;
    case 1: if (a.length) a[rng.int(a.length)] = rng.pick(INTERESTING); break;
    case 2: { // a 4-byte length that claims gigabytes
      const at = rng.int(Math.max(1, a.length - 3));
      const v = rng.pick(HUGE);
      a.splice(at, 4, (v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
      break;
    }
    case 3: a.splice(rng.int(a.length + 1), 0, ...rng.bytes(rng.range(1, 8))); break;
    case 4: a.splice(rng.int(a.length + 1), rng.range(1, 8)); break;
    case 5: { // duplicate a slice (repeated structure, cache references)
      const from = rng.int(a.length + 1);
      const slice = a.slice(from, from + rng.range(1, 64));
      for (let k = rng.range(1, 20); k > 0; k--) a.splice(rng.int(a.length + 1), 0, ...slice);
      break;
    }
    case 6: { // splice in part of another blob
      const o = rng.pick(ctx.blobs);
      const from = rng.int(o.length);
      a.splice(rng.int(a.length + 1), 0, ...o.subarray(from, from + rng.range(1, 200)));
      break;
    }
    case 7: a.length = rng.int(a.length + 1); break;
    default: { // deep nesting
      const open = rng.pick([[97, 1 - 128], [113], [25, 3], [99, 1 - 128, 3], [67, rng.int(128)]]);
      const n = rng.pick([50, 399, 401, 5000]);
      a.splice(rng.int(a.length + 1), 0, ...Array(n).fill(open).flat());
    }
  }
  return new Uint8Array(a);
}

/** A zstd frame of a payload: raw blocks, sometimes RLE for runs, with or without a content size. */
function frame(payload: Uint8Array, rng: Rng): Uint8Array {
  const blocks: Block[] = [];
  for (let at = 0; at < payload.length;) {
    const n = Math.min(payload.length - at, rng.pick([64, 1000, 128 * 1024]));
    blocks.push({ raw: payload.subarray(at, at + n) });
    at += n;
  }
  if (rng.chance(0.3)) blocks.push(...rle(rng.int(256), rng.pick([1, 1000, 200_000, 80 * 1024 * 1024])));
  if (!blocks.length) blocks.push({ raw: [] });
  return zstdFrame(blocks, rng.chance(0.5) ? { contentSize: blocks.reduce((n, b) => n + ('raw' in b ? b.raw.length : b.size), 0) + rng.pick([0, 0, 0, 1, -1, 1000]) } : {});
}

const target: FuzzTarget<Ctx> = {
  name: 'blob',
  about: 'mutated Nippy blobs (real fixtures, zstd frames with and without a content size, bombs) through the decoder',
  count: 3000,
  quickCount: 300,
  slowMs: 1000,
  hangMs: 10000,
  rssLimitMb: 1024,
  async setup() {
    const blobs = fs.readdirSync(BLOBS).filter((f) => f.endsWith('.nippy')).sort().map((f) => new Uint8Array(fs.readFileSync(path.join(BLOBS, f))));
    // The payloads inside the zstd-framed fixtures, to re-frame after mutating them.
    const payloads = blobs.filter((b) => b[3] === 20 && isZstdFrame(b, 4)).map((b) => inflateZstd(b.subarray(4), 1 << 26));
    return { blobs, payloads };
  },
  async run(ctx, rng) {
    let blob: Uint8Array;
    if (rng.chance(0.35)) {
      let p = rng.pick(ctx.payloads);
      for (let n = rng.range(0, 3); n > 0; n--) p = mutate(p, ctx, rng);
      blob = nippyZstd(frame(p, rng));
      if (rng.chance(0.2)) blob = mutate(blob, ctx, rng);
    } else {
      blob = rng.pick(ctx.blobs);
      for (let n = rng.range(1, 4); n > 0; n--) blob = mutate(blob, ctx, rng);
    }
    try {
      const v = thaw(blob);
      preview(v, 60);
      toJson(v);
      return { outcome: 'value' };
    } catch (e) {
      if (e instanceof NippyError && e.message) return { outcome: `reason: ${e.message.replace(/[-\d]+/g, 'N').split(/[:(,;]/)[0].split(' ').slice(0, 5).join(' ').trim()}` };
      throw e;
    }
  },
};
export default target;
