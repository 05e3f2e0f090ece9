// The launcher (dist/server.js) keeps V8's code cache of the server bundle in a directory of the user's
// own, shared by every installed version of the extension: a start writes its own cache and removes only
// caches no start has used for a week, so two versions in use never evict each other's cache.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer } from './helpers/lsp';

const DAY = 24 * 60 * 60 * 1000;
const BUNDLE = path.join(__dirname, '..', 'dist', 'server-main.js');

/** The cache file name the launcher uses for this bundle and this Node. */
function ownName(): string {
  const st = fs.statSync(BUNDLE);
  return `server-${st.size}-${Math.floor(st.mtimeMs)}-${process.version}-${process.arch}.cache`;
}

function age(file: string, days: number): void {
  const t = new Date(Date.now() - days * DAY);
  fs.utimesSync(file, t, t);
}

/** Starts the server with `tmp` as its temporary directory and stops it (the cache is written on exit). */
async function startAndStop(tmp: string): Promise<void> {
  const server = await startServer({}, { env: { TMPDIR: tmp, VIS_AUTHORING_CODE_CACHE: '' } });
  await server.stop();
}

describe('launcher: V8 code caches of several installed versions', () => {
  let tmp: string;
  let dir: string;
  before(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'vis-launch-')));
    dir = path.join(tmp, `vis-authoring-${process.getuid?.() ?? os.userInfo().username}`);
    fs.mkdirSync(dir, { mode: 0o700 });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('writes its own cache and removes only caches unused for a week', async () => {
    const other = path.join(dir, 'server-1000-1700000000000-v20.0.0-x64.cache');
    const recent = path.join(dir, 'server-2000-1700000000000-v20.0.0-x64.cache');
    const stale = path.join(dir, 'server-3000-1600000000000-v18.0.0-x64.cache');
    const unfinished = path.join(dir, 'server-3000-1600000000000-v18.0.0-x64.cache.4242');
    const foreign = path.join(dir, 'notes.txt');
    for (const f of [other, recent, stale, unfinished, foreign]) fs.writeFileSync(f, 'x');
    age(recent, 6);
    age(stale, 8);
    age(unfinished, 30);
    age(foreign, 30);

    await startAndStop(tmp);

    assert.deepEqual(fs.readdirSync(dir).sort(), [ownName(), path.basename(other), path.basename(recent), 'notes.txt'].sort());
    assert.ok(fs.statSync(path.join(dir, ownName())).size > 100_000, 'the cache holds the compiled bundle');
  });

  it('marks the cache it reads as used, so that another version does not take it for a stale one', async () => {
    const own = path.join(dir, ownName());
    age(own, 3);
    const before = fs.statSync(own).size;
    await startAndStop(tmp);
    assert.ok(Date.now() - fs.statSync(own).mtimeMs < DAY, 'read three days after it was written: marked used now');
    assert.equal(fs.statSync(own).size, before, 'a cache that was accepted is not written again');
  });
});
