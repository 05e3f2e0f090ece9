import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleandoc } from '../../server/src/model/docstring';

describe('cleandoc', () => {
  it("matches CPython 3.11's inspect.cleandoc", () => {
    // Input, then what inspect.cleandoc returned for it.
    const cases: [string, string][] = [
      ['Say hello.', 'Say hello.'],
      ['  Say hello.\n\n    Longer text\n      indented more\n    end.\n    ', 'Say hello.\n\nLonger text\n  indented more\nend.'],
      ['\n    Leading blank.\n\n    Body.\n', 'Leading blank.\n\nBody.'],
      ['First\n\tTabbed\n\t  more\n', 'First\nTabbed\n  more'],
      ['Only one line   ', 'Only one line   '],
      ['A\n   \n  B\n', 'A\n \nB'],
      ['', ''],
      ['   \n\n  ', '  '],
      ['x\n\f  y\n  z', 'x\n y\nz'],
    ];
    for (const [doc, cleaned] of cases) assert.equal(cleandoc(doc), cleaned, JSON.stringify(doc));
  });

  it('reads CRLF line ends as Python reads source files', () => {
    assert.equal(cleandoc('Say hello.\r\n\r\n    Body.\r\n    '), 'Say hello.\n\nBody.');
  });
});
