import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyze, pyLines as py, ready } from '../helpers/fixture';

before(ready);

/** The routing findings of a file: rule, message and range as `line:char-line:char`. */
function routingFindings(text: string): string[] {
  return analyze(text)
    .findings.filter((f) => f.rule.startsWith('ROUTE-'))
    .map((f) => `${f.rule} ${f.severity} ${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character} ${f.message}`);
}

const HEAD = ['import blockether.vis.extension as vis', 'from vis_lang_interface import prompt'];

describe('routing rules', () => {
  it('reports unknown verbs on the verbs argument, sorted by code point', () => {
    assert.deepEqual(
      routingFindings(
        py(
          ...HEAD,
          'PROMPT = prompt.routing("Python", "py", verbs=("run_tests", "check_syntax", "Lint", "check_syntax"))',
          'vis.register_extension(vis.Extension(name="py", description="Python", prompt=PROMPT))',
        ),
      ),
      ['ROUTE-001 error 2:46-2:99 unknown language verbs: Lint, check_syntax'],
    );
  });

  it('reports a call without verbs on the verbs argument, also through a constant', () => {
    assert.deepEqual(
      routingFindings(
        py(
          ...HEAD,
          'NO_VERBS = []',
          'PROMPT = prompt.routing(',
          '    "Python",',
          '    "py",',
          '    NO_VERBS,',
          ')',
          'vis.register_extension(vis.Extension(name="py", description="Python", prompt=PROMPT))',
        ),
      ),
      ['ROUTE-002 error 6:4-6:12 a language extension contributes at least one verb'],
    );
  });

  it('reports the unknown-verb error first, as Python raises it', () => {
    assert.deepEqual(routingFindings(py(...HEAD, 'P = prompt.routing("Go", "go", ("check_syntax",))')), [
      'ROUTE-001 error 2:31-2:48 unknown language verbs: check_syntax',
    ]);
  });

  it('stays silent on valid calls and on calls it cannot evaluate', () => {
    assert.deepEqual(
      routingFindings(
        py(
          ...HEAD,
          'import os',
          'A = prompt.routing("Go", "go", ("build", "repl_eval"))',
          'B = prompt.routing("Go", "go", os.environ["VERBS"].split(","))',
          'C = prompt.routing("Go", "go", ["build", os.environ["VERB"]])',
          'D = prompt.routing("Go", "go", ["nope"], "x", "y")',
        ),
      ),
      [],
    );
  });

  it('runs in files that import the Vis SDK (rules need the SDK generation)', () => {
    assert.deepEqual(routingFindings(py('from vis_lang_interface import prompt', 'P = prompt.routing("Go", "go", ["nope"])')), []);
    assert.deepEqual(routingFindings(py('import vis', 'from vis_lang_interface import prompt', 'P = prompt.routing("Go", "go", ["nope"])')), [
      'ROUTE-001 error 2:31-2:39 unknown language verbs: nope',
    ]);
  });
});
