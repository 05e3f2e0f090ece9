import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { EdnMap, EdnSet, Keyword, NippyError, NippyValue, Sym, Tagged, decodePayload, thaw } from '../../client/src/host/nippy';
import { toJson } from '../../client/src/host/valueText';
import { nippyZstd, rle, zstdFrame } from '../helpers/zstdFrames';

const BLOBS = path.join(__dirname, '..', 'fixtures', 'state', 'blobs');
const blob = (name: string) => new Uint8Array(readFileSync(path.join(BLOBS, `${name}.nippy`)));

// Every value frozen by the real Nippy (fixtures/state/freeze.clj) and what it must decode to.
const EXPECTED: Record<string, NippyValue> = {
  nil: null, true: true, false: false,
  'long-0': 0, 'long-1': 1, 'long-127': 127, 'long-128': 128, 'long-255': 255, 'long-256': 256,
  'long-32767': 32767, 'long-32768': 32768, 'long-65535': 65535, 'long-65536': 65536,
  'long-2147483647': 2147483647, 'long-2147483648': 2147483648, 'long-4294967296': 4294967296,
  'long-9007199254740993': 9007199254740993n, 'long-max': 9223372036854775807n, 'long-min': -9223372036854775808n,
  'neg-1': -1, 'neg-128': -128, 'neg-129': -129, 'neg-300': -300, 'neg-32768': -32768, 'neg-32769': -32769,
  'neg-2147483648': -2147483648, 'neg-2147483649': -2147483649,
  byte: 9, short: -5, integer: 70000,
  'double-0': 0, 'double-pi': 3.141592653589793, 'double-tiny': -2.5e-300, 'double-big': 1e308,
  'double-inf': Infinity, 'double-neg-inf': -Infinity, 'double-nan': NaN, float: 1.5,
  'str-empty': '', 'str-a': 'a', 'str-unicode': 'héllo ✓ 😀 ಬಾ',
  'str-127': 'x'.repeat(127), 'str-300': 'y'.repeat(300), 'str-70000': 'z'.repeat(70000),
  'vec-empty': [], 'vec-2': [1, 2], 'vec-3': [1, 'two', 3], 'vec-200': Array.from({ length: 200 }, (_, i) => i),
  'vec-nested': [[1, [2, [3, []]]], { k: [true, false, null] }],
  'map-empty': {}, 'map-1': { a: 1 },
  'map-python': { name: 'vis', count: 3, ratio: 0.5, tags: ['a', 'b'], nested: { ok: true, none: null } },
  'map-200': Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${String(i).padStart(3, '0')}`, i])),
  'map-kw-keys': new EdnMap([[new Keyword('a'), 1], [new Keyword('b'), [2]]]),
  'map-int-keys': new EdnMap([[1, 'one'], [2, 'two']]),
  bytes: new Uint8Array([1, 2, 3, 255]), 'bytes-empty': new Uint8Array(0),
  set: new EdnSet([1, 2, 3]), keyword: new Keyword('a'), 'keyword-ns': new Keyword('vis/state'), symbol: new Sym('foo/bar'),
  char: new Tagged('char', 'ಬ'), uuid: new Tagged('uuid', '5f0c8a4e-9a3b-4c1d-8e2f-0123456789ab'),
  date: new Tagged('inst', '2023-11-14T22:13:20.000Z'), instant: new Tagged('inst', '2023-11-14T22:13:20.123456789Z'),
  bigint: 123456789012345678901234567890n, biginteger: -98765432109876543210n,
  ratio: new Tagged('ratio', '22/7'), bigdec: new Tagged('bigdec', '3.14159'),
  list: [1, 2, 3], seq: [2, 3, 4], 'sorted-map': { a: 1, b: 2 }, 'map-entry': ['k', 'v'], meta: [1, 2],
  uri: new Tagged('uri', 'https://example.invalid/x?y=1'), regex: new Tagged('regex', 'a+b'),
  cached: ['foo', 'foo', { a: 1 }, { a: 1 }],
  'state-count': 2, 'state-names': ['ada', 'grace', 'linus'],
  'state-profile': { login: 'octocat', id: 583231, admin: false, score: 98.5, langs: ['py', 'clj'], meta: null },
  'state-items': Array.from({ length: 600 }, (_, i) => `item-${i}`), 'state-old-count': 1,
};

describe('Nippy decoder on values frozen by the real Nippy', () => {
  it('records the Nippy version the fixtures come from', () => {
    assert.match(readFileSync(path.join(BLOBS, 'nippy-version.txt'), 'utf8'), /^nippy 3\.1\.3\n/);
  });

  for (const [name, want] of Object.entries(EXPECTED)) {
    it(`${name}: uncompressed (meta 0) and zstd-framed (meta 20)`, () => {
      const raw = blob(name);
      assert.deepEqual([...raw.subarray(0, 4)], [0x4e, 0x50, 0x59, 0]);
      assert.deepEqual(thaw(raw), want);
      const z = blob(`${name}.zst`);
      assert.deepEqual([...z.subarray(0, 8)], [0x4e, 0x50, 0x59, 20, 0x28, 0xb5, 0x2f, 0xfd]);
      assert.deepEqual(thaw(z), want);
    });
  }

  it('zstd with a 4-byte size prefix, and Nippy\'s own lz4 framing', () => {
    assert.deepEqual(thaw(blob('map-python.zst-prefixed')), EXPECTED['map-python']);
    assert.deepEqual(thaw(blob('lz4-state-items')), EXPECTED['state-items']);
  });

  it('says why it cannot show lzma2 or encrypted values', () => {
    assert.throws(() => thaw(blob('lzma2-map-python')), { message: 'the value is compressed with lzma2, which this viewer does not decode' });
    assert.throws(() => thaw(blob('encrypted-map-1')), { message: 'the value is encrypted with a Nippy password; it cannot be shown' });
  });
});

describe('Nippy decoder on type ids of Nippy >= 3.3 (what Vis\'s Nippy 3.8 writes)', () => {
  // Hand-built from the type table: unsigned small counts and shifted pos/neg longs.
  const cases: [string, number[], NippyValue][] = [
    ['long-pos-sm 1', [87, 0x81], 1],
    ['long-pos-sm 255', [87, 0x7f], 255],
    ['long-pos-md 256', [88, 0x81, 0x00], 256],
    ['long-pos-lg 4294967295', [89, 0x7f, 0xff, 0xff, 0xff], 4294967295],
    ['long-neg-sm -1', [93, 0x81], -1],
    ['long-neg-md -300', [94, 0x81, 0x2c], -300],
    ['long-neg-lg -65536', [95, 0x80, 0x01, 0x00, 0x00], -65536],
    ['str-sm* of 200 bytes', [96, 200 - 128, ...Array(200).fill(0x61)], 'a'.repeat(200)],
    ['vec-sm* of 4', [97, 4 - 128, 87, 0x81, 87, 0x82, 87, 0x83, 3], [1, 2, 3, null]],
    ['map-sm* of 1', [99, 1 - 128, 96, 1 - 128, 0x6b, 8], { k: true }],
    ['set-sm* of 1', [98, 1 - 128, 34], new EdnSet([''])],
    ['vec-2 / vec-3', [113, 0, 114, 8, 9, 3], [0, [true, false, null]]],
  ];
  for (const [name, bytes, want] of cases) {
    it(name, () => assert.deepEqual(decodePayload(new Uint8Array(bytes)), want));
  }
});

describe('Nippy decoder on corrupt blobs', () => {
  const zst = blob('state-profile.zst');
  const bad = (b: Uint8Array | number[], msg: RegExp | string) =>
    assert.throws(() => thaw(b instanceof Uint8Array ? b : new Uint8Array(b)), (e: unknown) => e instanceof NippyError && (typeof msg === 'string' ? e.message === msg : msg.test(e.message)));

  it('no header', () => bad([0xde, 0xad, 0xbe, 0xef], 'not a Nippy value (no "NPY" header; 4 bytes starting de ad be ef)'));
  it('unknown header meta', () => bad([0x4e, 0x50, 0x59, 99, 3], 'unknown Nippy header meta id 99 (frozen by a newer Nippy?)'));
  it('truncated zstd frame', () => bad(zst.subarray(0, 20), /^zstd payload is corrupt: /));
  it('flipped bits inside the zstd frame', () => {
    const b = zst.slice();
    for (let i = 14; i < b.length - 4; i += 3) b[i] ^= 0x5a;
    bad(b, /^zstd payload is corrupt: |^truncated|^unknown type id|unexpected bytes|invalid UTF-8/);
  });
  it('header says zstd, payload is not', () => bad([0x4e, 0x50, 0x59, 20, 1, 2, 3, 4, 5], 'header says zstd but the payload is not a zstd frame'));
  it('truncated uncompressed payload', () => bad(blob('map-python').subarray(0, 30), /^truncated: /));
  it('a count past the end', () => bad([0x4e, 0x50, 0x59, 0, 21, 0x7f, 0xff, 0xff, 0xff, 3], 'truncated: vector of 2147483647 elements at offset 5 runs past the end'));
  it('unknown type id', () => bad([0x4e, 0x50, 0x59, 0, 127], 'unknown type id 127 at offset 0 (frozen by a newer Nippy, or corrupt)'));
  it('trailing bytes', () => bad([0x4e, 0x50, 0x59, 0, 3, 3], '1 unexpected bytes after the value'));
  it('a Serializable object', () => bad([0x4e, 0x50, 0x59, 0, 75, 1, 0x41], 'type id 75 at offset 0 is a Java Serializable object, which plain state data never holds'));
  it('invalid UTF-8', () => bad([0x4e, 0x50, 0x59, 0, 105, 2, 0xc3, 0x28], 'invalid UTF-8 in a string at offset 2'));
});

describe('JSON text of decoded values', () => {
  it('writes what JSON lacks in EDN spellings', () => {
    assert.equal(toJson(thaw(blob('state-profile.zst'))), '{\n  "login": "octocat",\n  "id": 583231,\n  "admin": false,\n  "score": 98.5,\n  "langs": [\n    "py",\n    "clj"\n  ],\n  "meta": null\n}');
    assert.equal(toJson([thaw(blob('long-max')), thaw(blob('double-nan')), thaw(blob('double-neg-inf')), thaw(blob('keyword-ns')), thaw(blob('bytes')), thaw(blob('uuid')), thaw(blob('set'))], 0),
      '[9223372036854775807,"##NaN","##-Inf",":vis/state",{"#bytes":"AQID/w=="},{"#uuid":"5f0c8a4e-9a3b-4c1d-8e2f-0123456789ab"},{"#set":[1,2,3]}]');
    assert.equal(toJson(thaw(blob('map-kw-keys')), 0), '{":a":1,":b":[2]}');
  });
});

describe('Nippy decoder: bounded work on blobs that claim more than they hold (regressions)', () => {
  const i32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const npy = (payload: number[]) => new Uint8Array([0x4e, 0x50, 0x59, 0, ...payload]);
  const refused = (b: Uint8Array, msg: string) => {
    const t0 = Date.now();
    assert.throws(() => thaw(b), (e: unknown) => e instanceof NippyError && e.message === msg);
    assert.ok(Date.now() - t0 < 1000, `refused in ${Date.now() - t0} ms`);
  };

  it('a 33-byte blob holding a 200 KB BigInteger is refused at once', () => {
    const frame = zstdFrame([{ raw: [44, ...i32(200000)] }, ...rle(0x11, 200000)], { contentSize: 200005 });
    const b = nippyZstd(frame);
    assert.equal(b.length, 33);
    refused(b, 'a big integer of 200000 bytes at offset 5, longer than the 8192 bytes this viewer shows');
  });

  it('a big integer within the limit is exact', () => {
    const frame = zstdFrame([{ raw: [44, ...i32(8192), 0x7f] }, ...rle(0xff, 8191)], { contentSize: 8197 });
    assert.equal(thaw(nippyZstd(frame)), (1n << 65535n) - 1n);
  });

  it('a zstd bomb without a content size (8 KB of RLE blocks, 256 MiB inflated)', () => {
    const frame = zstdFrame([{ raw: [13, ...i32(256 * 1024 * 1024)] }, ...rle(0x61, 256 * 1024 * 1024)]);
    assert.ok(frame.length < 9000, `${frame.length} bytes`);
    const before = process.memoryUsage().rss;
    refused(nippyZstd(frame), 'zstd payload is too large: its blocks inflate to more than the 67108864-byte limit');
    assert.ok(process.memoryUsage().rss - before < 32 * 1024 * 1024, 'nothing was inflated');
  });

  it('a frame that declares more than the cap, or more than its blocks hold', () => {
    refused(nippyZstd(zstdFrame(rle(0, 10), { contentSize: 2 ** 31 })), 'zstd payload is too large: a frame declares 2147483648 bytes, over the 67108864-byte limit');
    refused(nippyZstd(zstdFrame(rle(0, 10), { contentSize: 60_000_000 })), 'zstd payload is corrupt: a frame declares 60000000 bytes but its blocks hold at most 10');
  });

  it('a small zstd frame without a content size still decodes', () => {
    assert.equal(thaw(nippyZstd(zstdFrame([{ raw: [13, ...i32(300)] }, ...rle(0x7a, 300)]))), 'z'.repeat(300));
  });

  it('a 14-byte big decimal with scale 4e8 is printed as Java prints it, not expanded', () => {
    const b = npy([62, ...i32(1), 5, ...i32(400_000_000)]);
    assert.equal(b.length, 14);
    assert.deepEqual(thaw(b), new Tagged('bigdec', '5E-400000000'));
    assert.deepEqual(thaw(npy([62, ...i32(1), 5, ...i32(-2147483648)])), new Tagged('bigdec', '5E+2147483648'));
    assert.deepEqual(thaw(npy([62, ...i32(2), 0x30, 0x39, ...i32(7)])), new Tagged('bigdec', '0.0012345'));
    assert.deepEqual(thaw(npy([62, ...i32(2), 0x30, 0x39, ...i32(10)])), new Tagged('bigdec', '0.0000012345'));
    assert.deepEqual(thaw(npy([62, ...i32(2), 0x30, 0x39, ...i32(11)])), new Tagged('bigdec', '1.2345E-7'));
    assert.deepEqual(thaw(npy([62, ...i32(1), 0xfb, ...i32(-2)])), new Tagged('bigdec', '-5E+2'));
  });

  it('dates and instants outside what a Date holds (was "Invalid time value")', () => {
    const i64 = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((BigInt.asUintN(64, n) >> BigInt(8 * (7 - i))) & 0xffn));
    assert.deepEqual(thaw(npy([90, ...i64(1n << 62n)])), new Tagged('inst', '4611686018427387904 ms since 1970'));
    assert.deepEqual(thaw(npy([79, ...i64(-(1n << 60n)), ...i32(5)])), new Tagged('inst', '-1152921504606846976 s 5 ns since 1970'));
    assert.throws(() => thaw(npy([79, ...i64(0n), ...i32(-1)])), { message: 'an instant at offset 0 with -1 nanoseconds (must be 0..999999999)' });
  });

  it('deep nesting is refused with a reason', () => {
    refused(npy([...Array(10000).fill([97, 1 - 128]).flat(), 3]), 'nested deeper than 400 levels');
  });

  it('lengths that claim gigabytes', () => {
    refused(npy([13, ...i32(0x7fffffff)]), 'truncated: string of 2147483647 elements at offset 5 runs past the end');
    refused(npy([2, ...i32(0x7fffffff), 1]), 'truncated: byte array of 2147483647 elements at offset 5 runs past the end');
    refused(npy([30, ...i32(0x40000000), 3, 3]), 'truncated: map of 1073741824 elements at offset 5 runs past the end');
    refused(new Uint8Array([0x4e, 0x50, 0x59, 8, ...i32(60_000_000), 0x10, 0x61]), 'lz4 payload declares 60000000 bytes, more than its 2 compressed bytes can hold');
    refused(npy([27, ...i32(3), 3, 3, 3]), 'a map of 3 keys and values at offset 0 (an odd count)');
  });

  it('cached values that expand exponentially (each reference counted) are refused', () => {
    // cache k = [cache k-1, cache k-1]: 62 bytes per level, 2^60 values once expanded.
    const level = (k: number): number[] => (k === 0 ? [67, 0, 96, 3 - 128, 0x61, 0x62, 0x63] : [67, k, 113, ...level(k - 1), 67, k - 1]);
    refused(npy(level(60)), 'the value expands to more than 2000000 values (counting every reference to a cached value); too large to show');
    assert.equal(toJson(thaw(npy(level(2))), 0), '[["abc","abc"],["abc","abc"]]');
  });
});
