// The LSP base protocol's framing, checked before vscode-jsonrpc reads it. vscode-jsonrpc's reader stops
// at a header block it cannot use (no Content-Length, or one that is not a number) and leaves whatever
// came with it in its buffer until more bytes arrive, so a client that sent one bad frame and then waits
// for an answer waits for ever. Here a bad header block is dropped (and said), frames are passed on
// whole, and a frame past the size cap is skipped as it arrives, never buffered.
import { Transform, type TransformCallback } from 'node:stream';

/** A header block longer than this without its blank line is not a header: dropped up to the next `Content-Length:`. */
const MAX_HEADER_BYTES = 64 * 1024;
/** Frames larger than this are skipped (a 2,000,000-character didOpen is at most ~12 MB of JSON). */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

const TERMINATOR = Buffer.from('\r\n\r\n', 'ascii');

export class FrameChecker extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** Bytes of an oversized frame's body still to skip. */
  private skipping = 0;

  constructor(private warn: (message: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = chunk;
    if (this.skipping) {
      const n = Math.min(this.skipping, data.length);
      this.skipping -= n;
      data = data.subarray(n);
    }
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    this.drain();
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.skipping) {
        const n = Math.min(this.skipping, this.buffer.length);
        this.skipping -= n;
        this.buffer = this.buffer.subarray(n);
        if (this.skipping) return;
      }
      const end = this.buffer.indexOf(TERMINATOR);
      if (end === -1) {
        if (this.buffer.length > MAX_HEADER_BYTES) this.resync(`${this.buffer.length} bytes without a header`);
        return;
      }
      const header = this.buffer.subarray(0, end).toString('ascii');
      const length = contentLength(header);
      if (length === undefined) {
        this.warn(`a message header without a usable Content-Length was dropped: ${JSON.stringify(header.slice(0, 200))}`);
        this.buffer = this.buffer.subarray(end + TERMINATOR.length);
        continue;
      }
      const start = end + TERMINATOR.length;
      if (length > MAX_FRAME_BYTES) {
        this.warn(`a message of ${length} bytes (more than ${MAX_FRAME_BYTES}) was skipped`);
        this.buffer = this.buffer.subarray(start);
        this.skipping = length;
        continue;
      }
      if (this.buffer.length < start + length) return;
      this.push(this.buffer.subarray(0, start + length));
      this.buffer = this.buffer.subarray(start + length);
    }
  }

  /** Drops bytes up to the next `Content-Length:` (or all but its possible beginning). */
  private resync(why: string): void {
    const at = this.buffer.indexOf('Content-Length:', 1, 'ascii');
    this.warn(`${why}: dropped up to the next message header`);
    this.buffer = at === -1 ? this.buffer.subarray(this.buffer.length - 16) : this.buffer.subarray(at);
  }
}

/** The Content-Length of a header block, or undefined when it has none that is a whole number. */
function contentLength(header: string): number | undefined {
  let length: number | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) return undefined;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,12}$/.test(value)) return undefined;
    length = Number(value);
  }
  return length;
}
