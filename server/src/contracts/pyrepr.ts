// Python's repr() for the built-in literal types, character for character: floats in the shortest
// round-trip form with Python's exponent rules (model/literals), complex numbers, str and bytes with
// Python's quoting and escapes.
import { pyFloatRepr } from '../model/literals';

export { pyFloatRepr };

/** repr(str). */
export { pyRepr as pyStrRepr } from '../model/literals';

/** A float as `repr(complex)` prints each part: the 'r' format without the `.0` of integral values. */
function complexPart(x: number): string {
  const s = pyFloatRepr(x);
  return s.endsWith('.0') ? s.slice(0, -2) : s;
}

/** repr(complex): `2j` when the real part is +0, else `(re±imj)` (`(-0-1j)` for `-1j`). */
export function pyComplexRepr(re: number, im: number): string {
  if (re === 0 && !Object.is(re, -0)) return complexPart(im) + 'j';
  const imText = complexPart(im);
  const sign = imText.startsWith('-') ? '' : '+';
  return `(${complexPart(re)}${sign}${imText}j)`;
}

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
