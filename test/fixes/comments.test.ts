// Python comments told from the text: a `#` inside a string is not one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanComments } from '../../server/src/model/comments';

describe('comments', () => {
  it('finds comments outside strings: quotes, prefixes, triple quotes, escapes', () => {
    const text = [
      'x = "# not"  # one',
      "y = 'it\\'s # not'  # two",
      's = """',
      '# inside a docstring',
      '"""  # three',
      'r = r"\\" # still the string"  # four',
      'b = b\'#\' + rb"#" + u"#"  # five',
      '# six',
    ].join('\n');
    assert.deepEqual(scanComments(text).comments, [
      { line: 0, character: 13, text: '# one' },
      { line: 1, character: 19, text: '# two' },
      { line: 4, character: 5, text: '# three' },
      { line: 5, character: 30, text: '# four' },
      { line: 6, character: 25, text: '# five' },
      { line: 7, character: 0, text: '# six' },
    ]);
    // Lines that end inside a string, or after a backslash, take no comment.
    assert.deepEqual([...scanComments(text).openLines].sort(), [2, 3]);
    assert.deepEqual([...scanComments('x = 1 + \\\n    2\n').openLines], [0]);
  });

  it('reads f-string replacement fields as code, with strings of their own (PEP 701)', () => {
    const text = 'a = f"{d["#"]} and {x:>{w}} {{# literal}}"  # real\nb = f\'\'\'{ "#" }\n\'\'\'  # after\n';
    assert.deepEqual(scanComments(text).comments, [
      { line: 0, character: 44, text: '# real' },
      { line: 2, character: 5, text: '# after' },
    ]);
  });

  it('stops a one-line string at the end of its line, as Python does', () => {
    assert.deepEqual(scanComments('x = "unterminated # no\n# yes\n').comments, [{ line: 1, character: 0, text: '# yes' }]);
  });
});
