// Text forms of decoded state values: a JSON document and a one-line preview (no `vscode` import).
import { EdnMap, EdnSet, Keyword, NippyValue, Sym, Tagged } from './nippy';

/**
 * JSON for a decoded value. Values JSON lacks are spelled as EDN inside strings or tagged objects:
 * keywords ":a", symbols {"#symbol": "foo/bar"}, sets {"#set": [...]}, byte arrays {"#bytes": base64},
 * {"#uuid": ...}, {"#inst": ...}, non-finite doubles "##NaN" / "##Inf" / "##-Inf". Integers past
 * 2^53 are written as exact JSON numbers.
 */
export function toJson(v: NippyValue, indent = 2): string {
  return write(v, indent, '');
}

function write(v: NippyValue, indent: number, pad: string): string {
  const nl = indent ? '\n' : '';
  const inner = pad + ' '.repeat(indent);
  const sep = indent ? ': ' : ':';
  const list = (items: string[], open: string, close: string) =>
    items.length === 0 ? open + close : `${open}${nl}${items.map((s) => inner + s).join(`,${nl}`)}${nl}${pad}${close}`;
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? '-0.0' : JSON.stringify(v)) : JSON.stringify(Number.isNaN(v) ? '##NaN' : v > 0 ? '##Inf' : '##-Inf');
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return tagged('#bytes', JSON.stringify(Buffer.from(v).toString('base64')), indent);
  if (v instanceof Keyword) return JSON.stringify(v.toString());
  if (v instanceof Sym) return tagged('#symbol', JSON.stringify(v.name), indent);
  if (v instanceof Tagged) return tagged(`#${v.tag}`, JSON.stringify(v.text), indent);
  if (v instanceof EdnSet) return tagged('#set', write(v.items, indent, inner), indent);
  if (Array.isArray(v)) return list(v.map((x) => write(x, indent, inner)), '[', ']');
  if (v instanceof EdnMap) {
    const keys = v.entries.map(([k]) => keyText(k));
    if (new Set(keys).size === keys.length) {
      return list(v.entries.map(([, x], i) => `${JSON.stringify(keys[i])}${sep}${write(x, indent, inner)}`), '{', '}');
    }
    return tagged('#map', write(v.entries.map(([k, x]) => [k, x]), indent, inner), indent);
  }
  return list(Object.keys(v).map((k) => `${JSON.stringify(k)}${sep}${write(v[k], indent, inner)}`), '{', '}');
}

function tagged(tag: string, body: string, indent: number): string {
  return indent ? `{${JSON.stringify(tag)}: ${body}}` : `{${JSON.stringify(tag)}:${body}}`;
}

/** A map key that is not a string, as text: keywords ":a", numbers "1", others their compact JSON. */
function keyText(k: NippyValue): string {
  if (typeof k === 'string') return k;
  if (k instanceof Keyword || k instanceof Sym) return k.toString();
  if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean' || k === null) return String(k);
  return write(k, 0, '');
}

/** One line for a tree item: compact JSON, cut at `max` characters. */
export function preview(v: NippyValue, max = 80): string {
  const s = write(v, 0, '');
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
