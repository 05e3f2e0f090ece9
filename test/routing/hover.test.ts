import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { routingHover } from '../../server/src/features/routing';
import { routingCalls } from '../../server/src/routing/evaluate';
import { analyze, pyLines as py, ready } from '../helpers/fixture';

before(ready);

function hovers(...lines: string[]): string[] {
  const analysis = analyze(py('from vis_lang_interface import prompt', ...lines));
  return routingCalls(analysis.model).map((call) => routingHover(analysis, call, 'current'));
}

describe('routing hover', () => {
  it('fences the block with more backticks than any run inside it', () => {
    assert.deepEqual(hovers('P = prompt.routing("Go", "go", ["build"], notes=["Run ```go vet``` first."])'), [
      '**prompt.routing** \u2014 the text the model reads, current wording (vis-lang-interface 2.6.2 and later)\n\n' +
        '````text\n' +
        'go surface active \u2014 Go through its own toolchain:\n' +
        '  go.build\n' +
        'Use these verbs, not a shell command, to format, lint and test Go. Read their typed result; do not parse output.\n' +
        'Run ```go vet``` first.\n' +
        '````',
    ]);
  });

  it('shows the error the call raises, or why it is not evaluated', () => {
    assert.deepEqual(hovers('A = prompt.routing("Go", "go", [])', 'B = prompt.routing("Go", "go", VERBS_FROM_ELSEWHERE)'), [
      '**prompt.routing** raises `ValueError: a language extension contributes at least one verb` when the module is imported, so Vis does not load the extension.',
      '**prompt.routing** \u2014 not evaluated statically: `verbs` (`VERBS_FROM_ELSEWHERE`) is not statically known.',
    ]);
  });
});
