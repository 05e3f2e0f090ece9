// The message shim outside VS Code (English, placeholders filled) and counted nouns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countOf, setTranslator, t } from '../../client/src/l10n';

describe('t() and countOf()', () => {
  it('fills {0}, {1} placeholders and leaves unknown ones', () => {
    assert.equal(t('{0} of {1} ({2})', 'a', 3), 'a of 3 ({2})');
  });

  it('pluralises: 1 error, 2 errors, 0 warnings, 1 line', () => {
    assert.deepEqual([countOf(1, 'error'), countOf(2, 'error'), countOf(0, 'warning'), countOf(1, 'warning'), countOf(1, 'line'), countOf(7, 'line')],
      ['1 error', '2 errors', '0 warnings', '1 warning', '1 line', '7 lines']);
  });

  it('goes through the installed translator', () => {
    setTranslator((m, ...args) => `<${m}|${args.join(',')}>`);
    try {
      assert.equal(countOf(3, 'error'), '<{0} errors|3>');
    } finally {
      setTranslator((m, ...args) => m.replace(/\{(\d+)\}/g, (w, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : w)));
    }
  });
});
