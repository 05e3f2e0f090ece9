// Python's repr() for the built-in literal types, character for character: floats in the shortest
// round-trip form with Python's exponent rules, str and bytes with Python's quoting and escapes.

/**
 * repr(float): the shortest digits that round-trip, positional for 1e-4 <= |x| < 1e16, otherwise
 * `d.ddde+XX` (at least two exponent digits). `addDot0` appends `.0` to integral positional values
 * (complex parts print without it).
 */
export function pyFloatRepr(x: number, addDot0 = true): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return (Object.is(x, -0) ? '-0' : '0') + (addDot0 ? '.0' : '');
  const sign = x < 0 ? '-' : '';
  const [mant, expText] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const decpt = exp + 1;
  if (decpt > 16 || decpt < -3) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  let s: string;
  if (decpt <= 0) s = '0.' + '0'.repeat(-decpt) + digits;
  else if (decpt >= digits.length) s = digits + '0'.repeat(decpt - digits.length) + (addDot0 ? '.0' : '');
  else s = digits.slice(0, decpt) + '.' + digits.slice(decpt);
  return sign + s;
}

/** repr(complex) of a literal `<x>j` (real part +0), negated when `negative` (Python prints `(-0-xj)`). */
export function pyImagRepr(imag: number, negative = false): string {
  if (!negative) return pyFloatRepr(imag, false) + 'j';
  return `(-0${imag === 0 ? '-' : '-'}${pyFloatRepr(Math.abs(imag), false)}j)`;
}

/** repr(str). */
export { pyRepr as pyStrRepr } from '../model/literals';

/** repr(bytes) of a value whose characters are the byte values (0–255). */
export function pyBytesRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = 'b' + quote;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i];
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + quote;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c >= 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}
