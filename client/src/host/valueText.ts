// Text forms of decoded state values: a JSON document and a one-line preview (no `vscode` import).
import { EdnMap, EdnSet, Keyword, NippyValue, Sym, Tagged } from './nippy';

/**
 * JSON for a decoded value. Values JSON lacks are spelled as EDN inside strings or tagged objects:
 * keywords ":a", symbols {"#symbol": "foo/bar"}, sets {"#set": [...]}, byte arrays {"#bytes": base64},
 * {"#uuid": ...}, {"#inst": ...}, non-finite doubles "##NaN" / "##Inf" / "##-Inf". Integers past
 * 2^53 are written as exact JSON numbers.
 */
export function toJson(v: NippyValue, indent = 2): string {
  const sink = new Sink(Infinity);
  write(v, indent, '', sink);
  return sink.text();
}

/** Collects the text; stops the write (Enough) once it holds more than `max` characters. */
class Sink {
  private parts: string[] = [];
  private len = 0;
  constructor(private readonly max: number) {}
  push(s: string): void {
    this.parts.push(s);
    this.len += s.length;
    if (this.len > this.max) throw new Enough();
  }
  text(): string {
    return this.parts.join('');
  }
}
class Enough extends Error {}

function write(v: NippyValue, indent: number, pad: string, out: Sink): void {
  const nl = indent ? '\n' : '';
  const inner = pad + ' '.repeat(indent);
  const sep = indent ? ': ' : ':';
  const list = <T>(items: readonly T[], each: (x: T, i: number) => void, open: string, close: string) => {
    out.push(open);
    items.forEach((x, i) => {
      out.push(`${i ? ',' : ''}${nl}${inner}`);
      each(x, i);
    });
    out.push(items.length ? `${nl}${pad}${close}` : close);
  };
  const tag = (name: string, body: () => void) => {
    out.push(indent ? `{${JSON.stringify(name)}: ` : `{${JSON.stringify(name)}:`);
    body();
    out.push('}');
  };
  if (v === null) return out.push('null');
  if (typeof v === 'boolean' || typeof v === 'bigint') return out.push(String(v));
  if (typeof v === 'number') return out.push(Number.isFinite(v) ? (Object.is(v, -0) ? '-0.0' : JSON.stringify(v)) : JSON.stringify(Number.isNaN(v) ? '##NaN' : v > 0 ? '##Inf' : '##-Inf'));
  if (typeof v === 'string') return out.push(JSON.stringify(v));
  if (v instanceof Uint8Array) return tag('#bytes', () => out.push(JSON.stringify(Buffer.from(v).toString('base64'))));
  if (v instanceof Keyword) return out.push(JSON.stringify(v.toString()));
  if (v instanceof Sym) return tag('#symbol', () => out.push(JSON.stringify(v.name)));
  if (v instanceof Tagged) return tag(`#${v.tag}`, () => out.push(JSON.stringify(v.text)));
  if (v instanceof EdnSet) return tag('#set', () => write(v.items, indent, inner, out));
  if (Array.isArray(v)) return list(v, (x) => write(x, indent, inner, out), '[', ']');
  if (v instanceof EdnMap) {
    const keys = v.entries.map(([k]) => keyText(k));
    if (new Set(keys).size === keys.length) {
      return list(v.entries, ([, x], i) => { out.push(`${JSON.stringify(keys[i])}${sep}`); write(x, indent, inner, out); }, '{', '}');
    }
    return tag('#map', () => write(v.entries.map(([k, x]) => [k, x]), indent, inner, out));
  }
  return list(Object.keys(v), (k) => { out.push(`${JSON.stringify(k)}${sep}`); write(v[k], indent, inner, out); }, '{', '}');
}

/** A map key that is not a string, as text: keywords ":a", numbers "1", others their compact JSON. */
function keyText(k: NippyValue): string {
  if (typeof k === 'string') return k;
  if (k instanceof Keyword || k instanceof Sym) return k.toString();
  if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean' || k === null) return String(k);
  return compact(k, Infinity);
}

/** Compact JSON, or its first `max`-odd characters when it is longer: only that much is ever produced. */
function compact(v: NippyValue, max: number): string {
  const sink = new Sink(max);
  try {
    write(v, 0, '', sink);
  } catch (e) {
    if (!(e instanceof Enough)) throw e;
  }
  return sink.text();
}

/** One line for a tree item: compact JSON, cut at `max` characters. */
export function preview(v: NippyValue, max = 80): string {
  const s = compact(v, max);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** A short description of a value's shape, e.g. "map, 3 keys". */
export function shape(v: NippyValue): string {
  if (v === null) return 'nil';
  if (Array.isArray(v)) return `vector, ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v instanceof EdnSet) return `set, ${v.items.length} item${v.items.length === 1 ? '' : 's'}`;
  if (v instanceof EdnMap) return `map, ${v.entries.length} key${v.entries.length === 1 ? '' : 's'}`;
  if (v instanceof Uint8Array) return `bytes, ${v.length}`;
  if (v instanceof Keyword) return 'keyword';
  if (v instanceof Sym) return 'symbol';
  if (v instanceof Tagged) return v.tag;
  if (typeof v === 'object') { const n = Object.keys(v).length; return `map, ${n} key${n === 1 ? '' : 's'}`; }
  if (typeof v === 'bigint') return 'integer';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'double';
  return typeof v;
}

/** Children of a collection value for a tree: [label, value] pairs; undefined for scalars. */
export function children(v: NippyValue): [string, NippyValue][] | undefined {
  if (Array.isArray(v)) return v.map((x, i) => [String(i), x]);
  if (v instanceof EdnSet) return v.items.map((x, i) => [String(i), x]);
  if (v instanceof EdnMap) return v.entries.map(([k, x]) => [keyText(k), x]);
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array) && !(v instanceof Keyword) && !(v instanceof Sym) && !(v instanceof Tagged)) {
    return Object.keys(v).map((k) => [k, v[k]]);
  }
  return undefined;
}
