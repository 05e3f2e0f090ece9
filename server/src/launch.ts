// The language server's entry point (`node dist/server.js --stdio`): runs the server bundle
// (dist/server-main.js) from V8's code cache when there is one, so that a start does not compile the
// 1.4 MB bundle and each function it runs again. Node 20 has no compile cache of its own
// (`module.enableCompileCache` came with Node 22). The cache is written when the process exits (it then
// holds every function the run compiled), to a directory only this user
// can write; V8 refuses a cache made for other flags or another V8, and the file's name carries the
// bundle's size and time and the Node version, so a new bundle never reads an old cache; it is written
// again when a later run compiled much more than it holds. Several installed versions of the extension
// share the directory: a start that reads its cache marks it used (its mtime, at most once a day), and a
// start that writes one removes only caches unused for STALE_DAYS, so versions in use never evict each
// other's cache. Anything that goes wrong here only means a start without the cache.
// VIS_AUTHORING_CODE_CACHE=off turns it off.
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

const BUNDLE = path.join(__dirname, 'server-main.js');
const DAY = 24 * 60 * 60 * 1000;
/** A cache (of any bundle) not used for this long is removed by the next start that writes its own. */
const STALE_DAYS = 7;

/** Removes the caches (and unfinished writes) in `dir` that no start has used for STALE_DAYS, but `keep`. */
function removeStale(dir: string, keep: string): void {
  const before = Date.now() - STALE_DAYS * DAY;
  for (const old of fs.readdirSync(dir)) {
    if (old === keep || !/^server-.*\.cache(\.\d+)?$/.test(old)) continue;
    const file = path.join(dir, old);
    try {
      const st = fs.lstatSync(file);
      if (st.isFile() && st.mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/** A directory for the cache that is this user's alone (created so), or undefined. */
function cacheDirectory(): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    const dir = path.join(os.tmpdir(), `vis-authoring-${uid ?? os.userInfo().username}`);
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const st = fs.lstatSync(dir);
    // Someone else's directory, a link, or one others may write into: a cache there could be planted.
    if (!st.isDirectory() || (uid !== undefined && (st.uid !== uid || (st.mode & 0o022) !== 0))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function start(): void {
  if (process.env.VIS_AUTHORING_CODE_CACHE === 'off') {
    require(BUNDLE);
    return;
  }
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const dir = cacheDirectory();
  let name = '';
  let file: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    const st = fs.statSync(BUNDLE);
    name = `server-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}.cache`;
    file = dir && path.join(dir, name);
    // Only a regular file of ours (a link or someone else's file is not read).
    const cache = file ? fs.lstatSync(file) : undefined;
    if (file && cache?.isFile() && (typeof process.getuid !== 'function' || cache.uid === process.getuid())) {
      cachedData = fs.readFileSync(file);
      // Marked used, so that another version's start does not take it for a stale one.
      if (Date.now() - cache.mtimeMs > DAY) {
        const now = new Date();
        fs.utimesSync(file, now, now);
      }
    }
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  if (file) {
    process.once('exit', () => {
      try {
        // Written again when this run compiled much more than the cache holds (a first run that only started).
        const data = script.createCachedData();
        if (cachedData && !script.cachedDataRejected && data.length < cachedData.length * 1.1) return;
        const tmp = `${file}.${process.pid}`;
        fs.writeFileSync(tmp, data, { mode: 0o600 });
        fs.renameSync(tmp, file);
        removeStale(dir!, name);
      } catch {
        // The next start compiles again.
      }
    });
  }
  const main = new Module(BUNDLE, module);
  main.filename = BUNDLE;
  main.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(__dirname);
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(main.exports, main.exports, Module.createRequire(BUNDLE), main, BUNDLE, __dirname);
}

start();
