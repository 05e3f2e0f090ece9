// Python literals as Python evaluates them: strings (prefixes, escapes, implicit concatenation) and numbers.
import type { Value } from './types';

/** The value of one string literal's source text, or undefined for f-strings with fields and \N{...}. */
export function evalStringLiteral(src: string): { value: string; bytes: boolean } | undefined {
  const m = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(src);
  if (!m) return undefined;
  const prefix = m[1].toLowerCase();
  const quote = m[2];
  if (!src.endsWith(quote) || src.length < m[0].length + quote.length) return undefined;
  const body = src.slice(m[0].length, src.length - quote.length);
  const raw = prefix.includes('r');
  const bytes = prefix.includes('b');
  if (prefix.includes('f')) {
    // An f-string is known only when it has no replacement fields.
    if (/(^|[^{])\{(?!\{)/.test(body.replace(/\{\{/g, ''))) return undefined;
    const plain = body.replace(/\{\{/g, '{').replace(/\}\}/g, '}');
    const v = raw ? plain : unescape(plain);
    return v === undefined ? undefined : { value: v, bytes };
  }
  if (raw) return { value: body, bytes };
  const v = unescape(body);
  return v === undefined ? undefined : { value: v, bytes };
}

const SIMPLE: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\n': '',
};

function unescape(body: string): string | undefined {
  if (!body.includes('\\')) return body;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\' || i === body.length - 1) {
      out += c;
      continue;
    }
    const n = body[i + 1];
    if (n in SIMPLE) {
      out += SIMPLE[n];
      i++;
    } else if (n === '\r') {
      i += body[i + 2] === '\n' ? 2 : 1;
    } else if (/[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out += String.fromCodePoint(parseInt(oct, 8));
      i += oct.length;
    } else if (n === 'x' || n === 'u' || n === 'U') {
      const len = n === 'x' ? 2 : n === 'u' ? 4 : 8;
      const hex = body.slice(i + 2, i + 2 + len);
      if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return undefined;
      out += String.fromCodePoint(parseInt(hex, 16));
      i += 1 + len;
    } else if (n === 'N') {
      return undefined;
    } else {
      out += c;
    }
  }
  return out;
}

/** The value of a number literal: int (any base, underscores), float or complex. */
export function evalNumber(src: string): { kind: 'int' | 'float' | 'complex'; value: number } | undefined {
  const s = src.replace(/_/g, '');
  if (/[jJ]$/.test(s)) {
    const v = Number(s.slice(0, -1));
    return Number.isNaN(v) ? undefined : { kind: 'complex', value: v };
  }
  if (/^0[xX][0-9a-fA-F]+$/.test(s)) return { kind: 'int', value: parseInt(s.slice(2), 16) };
  if (/^0[oO][0-7]+$/.test(s)) return { kind: 'int', value: parseInt(s.slice(2), 8) };
  if (/^0[bB][01]+$/.test(s)) return { kind: 'int', value: parseInt(s.slice(2), 2) };
  if (/^[0-9]+$/.test(s)) return { kind: 'int', value: Number(s) };
  const v = Number(s);
  return Number.isNaN(v) ? undefined : { kind: 'float', value: v };
}

/** Python's `str.isspace()` for one code point (the set is fixed: bidi WS/B/S or category Zs). */
export function isPyWhitespace(cp: number): boolean {
  return (
    (cp >= 0x09 && cp <= 0x0d) ||
    (cp >= 0x1c && cp <= 0x20) ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** Python's str.isspace() for one character. */
export function pyIsSpace(c: string): boolean {
  return c.length === 1 && isPyWhitespace(c.charCodeAt(0));
}

/** Python's `str.strip()` with no argument. Unlike JS `trim()` it strips U+001C..U+001F and U+0085 and keeps U+FEFF. */
export function pyStrip(s: string): string {
  // Every Python whitespace character is in the BMP, so UTF-16 code units suffice here.
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return s.slice(start, end);
}

/** Python's str.isprintable() for one code point (Unicode general categories). */
function isPrintable(ch: string): boolean {
  if (ch === ' ') return true;
  return !/^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u.test(ch);
}

/** Python's repr() of a str. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x7f && cp >= 0x20) out += ch;
    else if (isPrintable(ch)) out += ch;
    else if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + quote;
}

/** Python's repr() of a known scalar value (a str quoted, others as str() prints them), or undefined. */
export function pyReprValue(v: Value): string | undefined {
  return v.kind === 'str' ? pyRepr(v.value) : pyStr(v);
}

/** Python's str() of a known scalar value (how the SDKs coerce names, verbs and notes), or undefined. */
export function pyStr(v: Value): string | undefined {
  switch (v.kind) {
    case 'str':
      return v.value;
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'none':
      return 'None';
    case 'int':
      return v.text.includes('_') || /^0[xob]/i.test(v.text) ? String(v.value) : v.text.replace(/^\+/, '');
    case 'float':
      return pyFloatRepr(v.value);
    default:
      return undefined;
  }
}

/** Python's repr() (and str()) of a float: the shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without an argument gives the shortest digits that round-trip, as Python's repr does.
  const [mantissa, e] = x.toExponential().split('e');
  const exp = Number(e);
  const sign = x < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
