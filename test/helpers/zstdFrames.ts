// Hand-built zstd frames (RFC 8878) of raw and RLE blocks: enough to write valid frames with or
// without a content size, and decompression bombs, without a zstd encoder.
export type Block = { raw: Uint8Array | number[] } | { rle: number; size: number };

const MAX_BLOCK = 128 * 1024;

/** One frame. With `contentSize` it is a single-segment frame that declares it; without, a frame with a 128 KiB window. */
export function zstdFrame(blocks: Block[], opts: { contentSize?: number } = {}): Uint8Array {
  const out: number[] = [0x28, 0xb5, 0x2f, 0xfd];
  if (opts.contentSize !== undefined) {
    out.push(0xe0); // FCS_Field_Size 8 bytes, Single_Segment
    let n = opts.contentSize;
    for (let i = 0; i < 8; i++) { out.push(n % 256); n = Math.floor(n / 256); }
  } else {
    out.push(0x00, 7 << 3); // no content size; window 2^(10+7) = 128 KiB
  }
  blocks.forEach((b, i) => {
    const last = i === blocks.length - 1 ? 1 : 0;
    const size = 'raw' in b ? b.raw.length : b.size;
    const h = last | (('raw' in b ? 0 : 1) << 1) | (size << 3);
    out.push(h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff);
    if ('raw' in b) out.push(...b.raw);
    else out.push(b.rle);
  });
  return new Uint8Array(out);
}

/** RLE blocks of `byte` that add up to `total` bytes. */
export function rle(byte: number, total: number): Block[] {
  const blocks: Block[] = [];
  for (let left = total; left > 0; left -= MAX_BLOCK) blocks.push({ rle: byte, size: Math.min(MAX_BLOCK, left) });
  return blocks;
}

/** A Nippy blob: "NPY", header meta 20 (zstd), then the frame. */
export function nippyZstd(frame: Uint8Array): Uint8Array {
  return new Uint8Array([0x4e, 0x50, 0x59, 20, ...frame]);
}
