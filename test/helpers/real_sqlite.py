#!/usr/bin/env python3
"""Real SQLite (python3's sqlite3 module) for the differential tests of our vis.db reader.

  real_sqlite.py build SCENARIO OUT_DIR BLOBS_DIR SEED   builds OUT_DIR/vis.db (+ -wal / -journal)
  real_sqlite.py dump DB_FILE                            prints every table's rows as JSON
  real_sqlite.py layout DB_FILE                          prints the page layout (dbstat) as JSON

`build` copies the database files while the writing connections are still open, the way a
reader finds them while Vis runs: nothing is checkpointed or rolled back by closing.
`dump` reads a *copy* of the files (opening a database with SQLite may checkpoint the WAL or roll
back a hot journal, which must never happen to the files under test), and prints, per table,
[rowid, {column: value}] for every stored column; values are tagged so that nothing is lost in
JSON: {"i": "123"} integer, {"f": "1.5"} real, {"s": ...} text, {"b": hex} blob, null.
"""
import contextlib
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile

# Scratch copies on a RAM disk where there is one (they are thrown away at once).
SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None

# The extension_aggregate table as Vis creates it (the same file the committed fixtures were made from).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "state", "schema.sql"), encoding="utf-8") as f:
    SCHEMA = f.read()

EXTENSIONS = ["greeter", "repo-tools", "ünïcode-ext", "big", "lz4-ext"]


class Writer:
    def __init__(self, path, rng, blobs, page_size=4096, encoding=None, journal="WAL", auto_vacuum=None):
        self.rng = rng
        self.blobs = blobs
        self.conn = sqlite3.connect(path, isolation_level=None)
        if encoding:
            self.conn.execute(f"PRAGMA encoding = '{encoding}'")
        if auto_vacuum:
            self.conn.execute(f"PRAGMA auto_vacuum = {auto_vacuum}")
        self.conn.execute(f"PRAGMA page_size = {page_size}")
        self.conn.execute(f"PRAGMA journal_mode = {journal}")
        self.conn.execute("PRAGMA wal_autocheckpoint = 0")
        self.conn.execute("PRAGMA synchronous = OFF")  # no fsync: the same bytes, written faster
        self.conn.execute("PRAGMA foreign_keys = ON")
        self.conn.executescript(SCHEMA)
        self.conn.execute("INSERT INTO session (id) VALUES ('s1')")
        self.keys = []
        self.n = 0

    def content(self):
        r = self.rng.random()
        if r < 0.55:
            return self.blobs[self.rng.randrange(len(self.blobs))]
        if r < 0.75:  # random bytes: overflow pages for larger ones
            return self.rng.randbytes(self.rng.choice([0, 1, 40, 500, 3000, 9000, 30000]))
        if r < 0.8:
            return None
        return self.rng.randbytes(self.rng.randrange(0, 200))

    def upsert(self, ext, key, kind='"py-state"', session=None):
        self.n += 1
        ts = 1700000000000 + self.n * 1000
        self.conn.execute(
            "INSERT INTO extension_aggregate (id, extension_id, aggregate_key, kind, content, session_id, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (extension_id, aggregate_key, kind, scope_key)"
            " DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at",
            (f"{self.rng.getrandbits(64):016x}-{self.n}", ext, key, kind, self.content(), session, ts, ts),
        )

    def batch(self, rows, deletes=0):
        self.conn.execute("BEGIN IMMEDIATE")
        for _ in range(rows):
            ext = self.rng.choice(EXTENSIONS)
            key = json.dumps(f"key-{self.rng.randrange(rows * 2)}" if self.rng.random() < 0.9 else f"ключ ✓ {self.rng.random()}", ensure_ascii=False)
            r = self.rng.random()
            kind = '"py-state"' if r < 0.85 else '"py-cache"'
            session = "s1" if r > 0.95 else None
            self.upsert(ext, key, kind, session)
            self.keys.append((ext, key))
        for _ in range(deletes):
            ext, key = self.rng.choice(self.keys)
            self.conn.execute("DELETE FROM extension_aggregate WHERE extension_id = ? AND aggregate_key = ?", (ext, key))
        self.conn.execute("COMMIT")


def copy_db(src, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for suffix in ("", "-wal", "-journal"):
        if os.path.exists(src + suffix):
            shutil.copyfile(src + suffix, os.path.join(out_dir, "vis.db" + suffix))


def hot_journal(src, rng, blobs, out_dir, rows, changes):
    """Rollback-journal mode, a writer mid-transaction whose changes spilled into vis.db: copied, then rolled back."""
    w = Writer(src, rng, blobs, page_size=1024, journal="DELETE")
    w.batch(rows)
    w.conn.execute("PRAGMA cache_size = 2")
    w.conn.execute("BEGIN IMMEDIATE")
    for sql in changes:
        w.conn.execute(sql)
    if not os.path.exists(src + "-journal"):
        raise SystemExit("hot journal: no journal was written")
    copy_db(src, out_dir)
    w.conn.execute("ROLLBACK")


def build(scenario, out_dir, blobs_dir, seed):
    rng = random.Random(f"{scenario}:{seed}")
    blobs = []
    for name in sorted(os.listdir(blobs_dir)):
        if name.endswith(".nippy"):
            with open(os.path.join(blobs_dir, name), "rb") as f:
                blobs.append(f.read())
    work = tempfile.mkdtemp(prefix="vis-real-sqlite-", dir=SCRATCH)
    src = os.path.join(work, "vis.db")
    try:
        if scenario in ("wal-4096", "partial-frame"):
            w = Writer(src, rng, blobs)
            for _ in range(3):
                w.batch(500, deletes=40)
        elif scenario == "wal-512":
            w = Writer(src, rng, blobs, page_size=512)
            for _ in range(4):
                w.batch(500, deletes=30)
        elif scenario == "wal-65536":
            w = Writer(src, rng, blobs, page_size=65536)
            w.batch(300)
            w.conn.execute("UPDATE extension_aggregate SET content = randomblob(200000) WHERE rowid % 50 = 0")
        elif scenario == "checkpointed":
            # Everything backfilled into vis.db; the WAL keeps its frames, a reader must not need them.
            w = Writer(src, rng, blobs, page_size=1024)
            for _ in range(3):
                w.batch(400, deletes=50)
            w.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
        elif scenario == "generations":
            # Each complete checkpoint lets the next writer restart the WAL with new salts; every
            # generation is shorter than the last, so frames of older generations stay behind it.
            w = Writer(src, rng, blobs, page_size=1024)
            for rows in (1200, 400, 60):
                w.batch(rows, deletes=20)
                w.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            w.batch(15)
        elif scenario == "partial-checkpoint":
            # A reader holding an old snapshot stops a checkpoint half way: vis.db has some of the
            # WAL's pages, the WAL all of them.
            w = Writer(src, rng, blobs, page_size=1024)
            w.batch(800)
            reader = sqlite3.connect(src, isolation_level=None)
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM extension_aggregate").fetchone()
            w.batch(600, deletes=100)
            w.batch(300, deletes=50)
            busy, log, backfilled = w.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if not (0 < backfilled < log):
                raise SystemExit(f"partial-checkpoint: expected a partial backfill, got {backfilled}/{log}")
            copy_db(src, out_dir)
            reader.execute("COMMIT")
            return
        elif scenario == "utf16":
            w = Writer(src, rng, blobs, encoding="UTF-16le")
            w.batch(700, deletes=20)
        elif scenario == "auto-vacuum":
            w = Writer(src, rng, blobs, page_size=1024, auto_vacuum="FULL")
            w.batch(900, deletes=300)
        elif scenario == "shapes":
            # Table shapes other than Vis's: a rowid alias, REAL affinity, columns added later
            # with defaults, a STORED generated column.
            w = Writer(src, rng, blobs)
            w.batch(300)
            c = w.conn
            c.execute("CREATE TABLE t2 (n INTEGER PRIMARY KEY, r REAL, t TEXT, b BLOB, g INTEGER GENERATED ALWAYS AS (n * 2) STORED, v ANY)")
            c.execute("CREATE TABLE t3 (a INT, b TEXT, PRIMARY KEY (a DESC))")
            c.execute("BEGIN")
            for i in range(1500):
                r = rng.choice([1.0, 2.5, -0.0, 1e18, -3e300, 12345678901234.0, float("inf"), 7.0 / 3])
                v = rng.choice([None, 0, 1, -1, 127, 128, -129, 32767, 2**23, 2**31, 2**39, 2**47, 2**53 + 1, 2**63 - 1, -(2**63), 0.5, "x" * rng.randrange(0, 3000), b"\x00\xff" * rng.randrange(0, 700)])
                c.execute("INSERT INTO t2 (n, r, t, b, v) VALUES (?, ?, ?, ?, ?)", (rng.randrange(-2**62, 2**62), r, "ü" * rng.randrange(0, 50), rng.randbytes(rng.randrange(0, 100)), v))
                c.execute("INSERT OR IGNORE INTO t3 VALUES (?, ?)", (rng.randrange(0, 10**6), str(i)))
            c.execute("COMMIT")
            c.execute("ALTER TABLE t2 ADD COLUMN added_int INTEGER DEFAULT -42")
            c.execute("ALTER TABLE t2 ADD COLUMN added_text TEXT DEFAULT 'it''s'")
            c.execute("ALTER TABLE t2 ADD COLUMN added_real REAL DEFAULT 1.5e3")
            c.execute("ALTER TABLE t2 ADD COLUMN added_null BLOB")
            c.execute("ALTER TABLE t2 ADD COLUMN added_hex INTEGER DEFAULT 0x10")
            c.execute("INSERT INTO t2 (n, r, added_int, added_text) VALUES (1, 2, 3, 'new')")
        elif scenario == "large":
            # For the state benchmark: 2,000 state writes next to 20 MB of session turns, part of it in the WAL.
            w = Writer(src, rng, blobs)
            w.conn.execute("BEGIN")
            for i in range(2000):
                w.conn.execute("INSERT INTO session_turn (id) VALUES (?)", (f"turn-{i}-" + "t" * 10000,))
            w.conn.execute("COMMIT")
            w.batch(1500)
            w.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            w.batch(500)
        elif scenario == "small-wal":
            # Small bases for the fuzz suite: two WAL generations, overflow chains, a few hundred rows.
            w = Writer(src, rng, blobs, page_size=1024)
            w.batch(120, deletes=10)
            w.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            w.batch(60, deletes=10)
        elif scenario == "small-plain":
            w = Writer(src, rng, blobs, page_size=1024, journal="DELETE")
            w.batch(150, deletes=10)
        elif scenario == "small-journal":
            return hot_journal(src, rng, blobs, out_dir, 120, ["UPDATE extension_aggregate SET content = randomblob(900) WHERE rowid % 2 = 0"])
        elif scenario == "hot-journal":
            return hot_journal(src, rng, blobs, out_dir, 600, [
                "UPDATE extension_aggregate SET content = randomblob(1500)",
                "DELETE FROM extension_aggregate WHERE rowid % 3 = 0",
            ])
        else:
            raise SystemExit(f"unknown scenario {scenario}")
        copy_db(src, out_dir)
        if scenario == "partial-frame":
            wal = os.path.join(out_dir, "vis.db-wal")
            size = os.path.getsize(wal)
            frame = 24 + 4096
            frames = (size - 32) // frame
            os.truncate(wal, 32 + (frames - 1) * frame + rng.randrange(1, frame))
        w.conn.close()  # the copies are taken; closing may checkpoint the originals, never the copies
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def scratch_copy(db_file):
    """A copy of the database files in a scratch folder, removed afterwards; yields the copy's path."""
    work = tempfile.mkdtemp(prefix="vis-real-sqlite-copy-", dir=SCRATCH)
    try:
        copy = os.path.join(work, "vis.db")
        for suffix in ("", "-wal", "-journal"):
            if os.path.exists(db_file + suffix):
                shutil.copyfile(db_file + suffix, copy + suffix)
        yield copy
    finally:
        shutil.rmtree(work, ignore_errors=True)


def tag(v):
    if v is None:
        return None
    if isinstance(v, int):
        return {"i": str(v)}
    if isinstance(v, float):
        return {"f": repr(v)}
    if isinstance(v, str):
        return {"s": v}
    return {"b": bytes(v).hex()}


def dump(db_file):
    with scratch_copy(db_file) as copy:
        conn = sqlite3.connect(f"file:{copy}", uri=True)
        conn.execute("PRAGMA synchronous = OFF")  # closing checkpoints the copy: no need to fsync it
        out = {}
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for table in tables:
            cols = [r[1] for r in conn.execute(f'PRAGMA table_xinfo("{table}")') if r[6] in (0, 3)]  # not VIRTUAL, not hidden
            sel = ", ".join(f'"{c}"' for c in cols)
            rows = conn.execute(f'SELECT rowid, {sel} FROM "{table}" ORDER BY rowid').fetchall()
            out[table] = [[str(r[0]), {c: tag(v) for c, v in zip(cols, r[1:])}] for r in rows]
        state = conn.execute(
            """SELECT extension_id, aggregate_key, content, updated_at FROM extension_aggregate
               WHERE kind = '"py-state"' AND scope_key = 'global' ORDER BY extension_id, aggregate_key"""
        ).fetchall()
        out["#state"] = [[e, k, None if c is None else bytes(c).hex(), u] for e, k, c, u in state]
        json.dump(out, sys.stdout, ensure_ascii=False)
        conn.close()


def layout(db_file):
    """Where each table's pages are, as SQLite's dbstat sees them (read from a copy)."""
    with scratch_copy(db_file) as copy:
        conn = sqlite3.connect(copy)
        conn.execute("PRAGMA synchronous = OFF")
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        (page_count,) = conn.execute("PRAGMA page_count").fetchone()
        roots = {n: r for n, r in conn.execute("SELECT name, rootpage FROM sqlite_schema")}
        pages = [list(r) for r in conn.execute("SELECT name, pageno, pagetype, ncell, path FROM dbstat ORDER BY pageno")]
        json.dump({"pageSize": page_size, "pageCount": page_count, "roots": roots, "pages": pages}, sys.stdout)
        conn.close()


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "dump":
        dump(sys.argv[2])
    elif sys.argv[1] == "layout":
        layout(sys.argv[2])
    else:
        raise SystemExit(__doc__)
