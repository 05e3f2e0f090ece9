// Bounded zstd inflation for stored state values (no `vscode` import).
//
// fzstd decodes the blocks; this module decides first whether it may. It walks the frames and block
// headers (RFC 8878 §3.1) without decoding anything and adds up the most each block can produce: a
// raw or RLE block its stated size, a compressed block at most its Block_Maximum_Size (128 KiB or
// the window). Frames that would inflate past the cap in total, declare a content size past it or
// past what their blocks can hold, or ask for a window past it, are refused before a byte is
// allocated, so a frame without a content size (a decompression bomb of RLE blocks) is caught too.
// The output is still counted while it is produced.
import { Decompress } from 'fzstd';
import { t } from '../l10n';

export class ZstdError extends Error {
  /** 'too-large': well-formed, but past the cap; 'corrupt': not valid zstd. */
  constructor(readonly kind: 'corrupt' | 'too-large', message: string) {
    super(message);
  }
}
const corrupt = (message: string) => new ZstdError('corrupt', message);
const tooLarge = (message: string) => new ZstdError('too-large', message);

const MAGIC = 0xfd2fb528;
const MAX_BLOCK = 128 * 1024;

const u32le = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** Is there a zstd frame at `at`? */
export function isZstdFrame(b: Uint8Array, at = 0): boolean {
  return b.length >= at + 4 && u32le(b, at) === MAGIC;
}

export interface ZstdPlan {
  /** The most the frames can inflate to. */
  bound: number;
  /** The content size every frame declares, summed; undefined when one does not. */
  declared?: number;
}

/** Walks the frames of `src` (header and block headers only). Throws ZstdError when they do not fit in `cap` bytes. */
export function planZstd(src: Uint8Array, cap: number): ZstdPlan {
  let at = 0;
  let bound = 0;
  let declared: number | undefined = 0;
  let p = 0;
  const truncated = (what: string) => corrupt(t('truncated ({0} at byte {1})', what, p));
  while (at < src.length) {
    p = at;
    if (src.length - at < 8 && !isZstdFrame(src, at)) throw corrupt(t('{0} unexpected bytes after the last frame', src.length - at));
    const magic = u32le(src, at);
    if ((magic & 0xfffffff0) === 0x184d2a50) { // skippable frame
      if (at + 8 > src.length) throw truncated(t('a skippable frame'));
      at += 8 + u32le(src, at + 4);
      if (at > src.length) throw truncated(t('a skippable frame'));
      continue;
    }
    if (magic !== MAGIC) throw corrupt(t('no zstd frame at byte {0}', at));
    const fhd = src[at + 4];
    if (fhd === undefined) throw truncated(t('the frame header'));
    if (fhd & 0x08) throw corrupt(t('the frame header has its reserved bit set'));
    const single = (fhd >> 5) & 1;
    const checksum = (fhd >> 2) & 1;
    const dictBytes = [0, 1, 2, 4][fhd & 3];
    const fcsFlag = fhd >> 6;
    const fcsBytes = fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag];
    p = at + 5;
    let window = 0;
    if (!single) {
      if (p >= src.length) throw truncated(t('the frame header'));
      const wd = src[p++];
      const base = 2 ** (10 + (wd >> 3));
      window = base + (base / 8) * (wd & 7);
    }
    p += dictBytes;
    if (p + fcsBytes > src.length) throw truncated(t('the frame header'));
    let size: number | undefined;
    if (fcsBytes) {
      size = 0;
      for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + src[p + i];
      if (fcsBytes === 2) size += 256;
    }
    p += fcsBytes;
    if (single) window = size ?? 0;
    if (size !== undefined && size > cap) throw tooLarge(t('a frame declares {0} bytes, over the {1}-byte limit', size, cap));
    if (window > cap) throw tooLarge(t('a frame asks for a {0}-byte window, over the {1}-byte limit', window, cap));
    const blockMax = Math.min(MAX_BLOCK, window || MAX_BLOCK);
    let frameBound = 0;
    for (let last = 0; !last;) {
      if (p + 3 > src.length) throw truncated(t('a block header'));
      const h = src[p] | (src[p + 1] << 8) | (src[p + 2] << 16);
      last = h & 1;
      const type = (h >> 1) & 3;
      const bsize = h >>> 3;
      p += 3;
      if (type === 3) throw corrupt(t('a block of the reserved type 3 at byte {0}', p - 3));
      if (bsize > blockMax) throw corrupt(t('a block of {0} bytes at byte {1}, more than the {2} its frame allows', bsize, p - 3, blockMax));
      const stored = type === 1 ? 1 : bsize;
      if (p + stored > src.length) throw truncated(t('a block'));
      p += stored;
      frameBound += type === 2 ? blockMax : bsize;
      if (bound + frameBound > cap) throw tooLarge(t('its blocks inflate to more than the {0}-byte limit', cap));
    }
    if (checksum) {
      if (p + 4 > src.length) throw truncated(t('the frame checksum'));
      p += 4;
    }
    if (size !== undefined && size > frameBound) throw corrupt(t('a frame declares {0} bytes but its blocks hold at most {1}', size, frameBound));
    declared = size === undefined || declared === undefined ? undefined : declared + size;
    bound += size ?? frameBound;
    at = p;
  }
  if (at === 0) throw corrupt(t('no data'));
  return { bound, declared };
}

/** Inflates zstd data of at most `cap` bytes; throws ZstdError with a reason otherwise. */
export function inflateZstd(src: Uint8Array, cap: number): Uint8Array {
  const plan = planZstd(src, cap);
  const out = new Uint8Array(plan.bound);
  let n = 0;
  try {
    const d = new Decompress((chunk) => {
      if (n + chunk.length > out.length) throw corrupt(t('it inflates to more than its frames declare'));
      out.set(chunk, n);
      n += chunk.length;
    });
    d.push(src, true);
  } catch (e) {
    if (e instanceof ZstdError) throw e;
    throw corrupt((e as Error)?.message || String(e));
  }
  if (plan.declared !== undefined && n !== plan.declared) throw corrupt(t('it inflated to {0} bytes, its frames declare {1}', n, plan.declared));
  return n === out.length ? out : out.slice(0, n);
}
