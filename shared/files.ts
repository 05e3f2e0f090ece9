// One guarded reader for every file the product reads that a user controls (entry files, sibling
// modules, manifests, previews, the CLI's paths, the host's registry and token files): regular files
// only, a size cap checked before reading, and a clear reason instead of an exception. A FIFO, a
// device such as /dev/zero, a directory or a symlink loop is refused at once, never read.
// No VS Code types: the server, the CLI and the client's host code all use it.
import fs from 'node:fs';

export type ReadFailure = 'not-found' | 'not-regular' | 'too-large' | 'binary' | 'unreadable';

export type ReadResult =
  | { ok: true; text: string; /** mtime:size, to tell when the file changed. */ stamp: string }
  | { ok: false; reason: ReadFailure; message: string };

export interface ReadOptions {
  /** Refuse files larger than this many bytes (checked with fstat before reading). */
  maxBytes: number;
  /** `utf8` (default) or `latin1` (one character per byte). */
  encoding?: BufferEncoding;
  /** Refuse text with a NUL byte in its first 8 KB (Python refuses such source). Default true. */
  rejectBinary?: boolean;
}

/** A file's stamp (mtime:size) when it is a regular file, else undefined. Follows symlinks. */
export function fileStamp(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? `${st.mtimeMs}:${st.size}` : undefined;
  } catch {
    return undefined;
  }
}

function failure(reason: ReadFailure, message: string): ReadResult {
  return { ok: false, reason, message };
}

function describeError(file: string, e: unknown): ReadResult {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return failure('not-found', `${file}: no such file`);
  if (code === 'ELOOP') return failure('unreadable', `${file}: too many levels of symbolic links (a symlink loop)`);
  if (code === 'EACCES' || code === 'EPERM') return failure('unreadable', `${file}: permission denied`);
  if (code === 'EISDIR') return failure('not-regular', `${file}: is a directory, not a file`);
  return failure('unreadable', `${file}: cannot be read (${code ?? (e instanceof Error ? e.message : String(e))})`);
}

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function tooLarge(file: string, size: number, max: number): ReadResult {
  return failure('too-large', `${file} has ${size} bytes, more than the limit of ${max}; not read`);
}

/**
 * Reads a regular file synchronously. The file is opened non-blocking (so a FIFO cannot block the
 * process), checked with fstat, and read only when it is a regular file within `maxBytes`.
 */
export function readTextFileSync(file: string, options: ReadOptions): ReadResult {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return failure('not-regular', `${file} is ${kindOf(st)}; only regular files are read`);
    if (st.size > options.maxBytes) return tooLarge(file, st.size, options.maxBytes);
    const buf = Buffer.allocUnsafe(st.size);
    let off = 0;
    // A file that grows while it is read is cut at the size fstat gave.
    while (off < st.size) {
      const n = fs.readSync(fd, buf, off, st.size - off, off);
      if (n === 0) break;
      off += n;
    }
    return decode(file, buf.subarray(0, off), `${st.mtimeMs}:${st.size}`, options);
  } catch (e) {
    return describeError(file, e);
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The same checks, asynchronously, with a deadline for slow file systems. */
export async function readTextFile(file: string, options: ReadOptions & { timeoutMs?: number }): Promise<ReadResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  let handle: fs.promises.FileHandle | undefined;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ReadResult>((resolve) => {
    timer = setTimeout(() => resolve(failure('unreadable', `${file}: not read within ${timeoutMs} ms`)), timeoutMs);
  });
  const read = (async (): Promise<ReadResult> => {
    try {
      handle = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
      const st = await handle.stat();
      if (!st.isFile()) return failure('not-regular', `${file} is ${kindOf(st)}; only regular files are read`);
      if (st.size > options.maxBytes) return tooLarge(file, st.size, options.maxBytes);
      const buf = Buffer.allocUnsafe(st.size);
      let off = 0;
      while (off < st.size) {
        const { bytesRead } = await handle.read(buf, off, st.size - off, off);
        if (bytesRead === 0) break;
        off += bytesRead;
      }
      return decode(file, buf.subarray(0, off), `${st.mtimeMs}:${st.size}`, options);
    } catch (e) {
      return describeError(file, e);
    }
  })();
  try {
    return await Promise.race([read, deadline]);
  } finally {
    clearTimeout(timer);
    void read.finally(() => handle?.close().catch(() => undefined));
  }
}

function decode(file: string, buf: Buffer, stamp: string, options: ReadOptions): ReadResult {
  if (options.rejectBinary !== false && buf.subarray(0, 8192).includes(0)) {
    return failure('binary', `${file} looks like a binary file (it holds a NUL byte); not read`);
  }
  return { ok: true, text: buf.toString(options.encoding ?? 'utf8'), stamp };
}
