import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { evaluateRouting, routingCalls, type RoutingEvaluation } from '../../server/src/routing/evaluate';
import type { RoutingVersion } from '../../server/src/routing/render';
import { analyze, pyLines as py, ready } from '../helpers/fixture';

before(ready);

/** Every routing call of a file, evaluated. */
function evaluate(text: string, version: RoutingVersion = 'current'): RoutingEvaluation[] {
  const { model } = analyze(text);
  return routingCalls(model).map((call) => evaluateRouting(model, call, version));
}

function only(text: string, version: RoutingVersion = 'current'): RoutingEvaluation {
  const all = evaluate(text, version);
  assert.equal(all.length, 1, 'one routing call');
  return all[0];
}

const PY_TEXT =
  'py surface active \u2014 Python through its own toolchain:\n' +
  '  py.format_code \u00b7 py.run_tests\n' +
  'Use these verbs, not a shell command, to format, lint and test Python. Read their typed result; do not parse output.\n' +
  'Prefer py.run_tests over pytest.';

describe('prompt.routing recognition', () => {
  it('recognises `from vis_lang_interface import prompt` and evaluates literals', () => {
    const r = only(
      py(
        'from vis_lang_interface import prompt',
        '',
        'PROMPT = prompt.routing("Python", "py", ("run_tests", "format_code"), notes=("  Prefer py.run_tests over pytest.  ",))',
      ),
    );
    assert.deepEqual(r, {
      kind: 'text',
      text: PY_TEXT,
      args: { language: 'Python', alias: 'py', verbs: ['run_tests', 'format_code'], notes: ['  Prefer py.run_tests over pytest.  '] },
    });
  });

  it('recognises `from vis_lang_interface.prompt import routing as r`', () => {
    const r = only(
      py(
        'from vis_lang_interface.prompt import routing as r',
        'PROMPT = r(language="Python", alias="py", verbs=["format_code", "run_tests"], notes=["Prefer py.run_tests over pytest."])',
      ),
    );
    assert.equal(r.kind === 'text' && r.text, PY_TEXT);
  });

  it('recognises module imports with and without an alias, and `from ... import prompt as p`', () => {
    for (const [imp, callee] of [
      ['import vis_lang_interface.prompt as lp', 'lp.routing'],
      ['import vis_lang_interface', 'vis_lang_interface.prompt.routing'],
      ['import vis_lang_interface.prompt', 'vis_lang_interface.prompt.routing'],
      ['from vis_lang_interface import prompt as p', 'p.routing'],
      ['from vis_lang_interface.prompt import routing', 'routing'],
    ]) {
      const r = only(py(imp, `PROMPT = ${callee}("Go", "go", ["build"])`));
      assert.equal(r.kind, 'text', imp);
      assert.deepEqual(r.kind === 'text' && r.args, { language: 'Go', alias: 'go', verbs: ['build'] }, imp);
    }
  });

  it('ignores calls that only look like routing', () => {
    assert.deepEqual(
      evaluate(
        py(
          'from other_package import prompt',
          'import vis_lang_interface',
          'def routing(*a):',
          '    return ""',
          'A = prompt.routing("Go", "go")',
          'B = routing("Go", "go")',
          'C = vis_lang_interface.routing("Go", "go")',
        ),
      ),
      [],
    );
  });

  it('finds a call written inline in the Extension', () => {
    const r = only(
      py(
        'import blockether.vis.extension as vis',
        'from vis_lang_interface import prompt',
        'vis.register_extension(vis.Extension(name="go", description="Go", prompt=prompt.routing("Go", "go", ("lint_code",))))',
      ),
    );
    assert.equal(r.kind, 'text');
  });
});

describe('prompt.routing argument binding and values', () => {
  it('uses the whole VERBS when verbs is omitted, and keeps notes keyword-only', () => {
    const r = only(py('from vis_lang_interface import prompt', 'P = prompt.routing("Python", "py", notes=("n",))'));
    assert.deepEqual(r.kind === 'text' && r.args, { language: 'Python', alias: 'py', notes: ['n'] });
    assert.equal(r.kind === 'text' && r.text.split('\n')[1], '  py.format_code \u00b7 py.lint_code \u00b7 py.run_tests \u00b7 py.build');
  });

  it('resolves module constants, through other constants too', () => {
    const r = only(
      py(
        'from vis_lang_interface import prompt',
        'LANGUAGE = "Clojure"',
        'ALIAS = "clj"',
        'REPL = ("repl_start", "repl_eval")',
        'VERBS_USED = REPL',
        'NOTE = "Use clj.repl_eval for quick checks."',
        'NOTES = [NOTE, "   "]',
        'PROMPT = prompt.routing(LANGUAGE, ALIAS, verbs=VERBS_USED, notes=NOTES)',
      ),
    );
    assert.deepEqual(r, {
      kind: 'text',
      text:
        'clj surface active \u2014 Clojure through its own toolchain:\n' +
        '  clj.repl_start \u00b7 clj.repl_eval\n' +
        'A REPL stays alive after the call that started it, and nothing in the context shows that it is alive. `clj.repl_status` tells you; `clj.repl_stop` ends it. Evaluate in a live REPL to check a change without a new toolchain startup.\n' +
        'Use clj.repl_eval for quick checks.',
      args: { language: 'Clojure', alias: 'clj', verbs: ['repl_start', 'repl_eval'], notes: ['Use clj.repl_eval for quick checks.', '   '] },
    });
  });

  it('renders the wording it is asked for', () => {
    const src = py('from vis_lang_interface import prompt', 'P = prompt.routing("Clojure", "clj", ["run_tests"])');
    const legacy = only(src, 'legacy');
    assert.equal(
      legacy.kind === 'text' && legacy.text,
      'clj surface active \u2014 Clojure through its own toolchain:\n' +
        '  clj.run_tests\n' +
        'These verbs are the Clojure toolchain here: reach for them instead of a shell line that runs the formatter, the linter or the test command, and read the typed result they answer rather than parsing output.',
    );
  });

  it('accepts prompt.VERBS, an imported VERBS, dict keys and sets of verbs', () => {
    const all = evaluate(
      py(
        'from vis_lang_interface import prompt',
        'from vis_lang_interface.prompt import VERBS',
        'A = prompt.routing("X", "x", prompt.VERBS)',
        'B = prompt.routing("X", "x", VERBS)',
        'C = prompt.routing("X", "x", {"build": 1, "lint_code": 2})',
        'D = prompt.routing("X", "x", {"build", "lint_code"})',
      ),
    );
    assert.deepEqual(
      all.map((r) => r.kind === 'text' && r.args.verbs),
      [
        ['format_code', 'lint_code', 'run_tests', 'build', 'repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop'],
        ['format_code', 'lint_code', 'run_tests', 'build', 'repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop'],
        ['build', 'lint_code'],
        ['build', 'lint_code'],
      ],
    );
  });

  it('applies str() to scalar language, alias, verbs and notes', () => {
    const r = only(py('from vis_lang_interface import prompt', 'P = prompt.routing(3, None, ("build",), notes=(1.5e-7, True))'));
    assert.deepEqual(r.kind === 'text' && r.args, { language: '3', alias: 'None', verbs: ['build'], notes: ['1.5e-07', 'True'] });
  });

  it('is unknown (with a reason) when an argument cannot be known statically', () => {
    const reasons = evaluate(
      py(
        'import os',
        'from vis_lang_interface import prompt',
        'from .shared import LANG',
        'TWICE = ["build"]',
        'TWICE = ["lint_code"]',
        'ARGS = ("Go", "go")',
        'A = prompt.routing(os.environ["LANG"], "go")',
        'B = prompt.routing(LANG, "go")',
        'C = prompt.routing("Go", "go", TWICE)',
        'D = prompt.routing("Go", "go", verbs=[v for v in prompt.VERBS if v != "build"])',
        'E = prompt.routing(*ARGS)',
        'F = prompt.routing("Go", "go", notes={"a", "b"})',
        'G = prompt.routing("Go", "go", ["build"], ["note"])',
        'H = prompt.routing("Go")',
        'I = prompt.routing("Go", "go", language="Go")',
        'J = prompt.routing("Go", "go", verb=["build"])',
        'K = prompt.routing("Go", "go", [name for name in ()])',
        'L = prompt.routing("Go", "go", {1: "a", True: "b"})',
        'M = prompt.routing("Go", "go", ["build", get_verb()])',
      ),
    ).map((r) => (r.kind === 'unknown' ? r.reason : r.kind));
    assert.deepEqual(reasons, [
      '`language` (`os.environ["LANG"]`) is not statically known',
      '`language` (`LANG`) is not statically known',
      '`verbs` (`TWICE`) is not statically known',
      '`verbs` (`[v for v in prompt.VERBS if v != "build"]`) is not statically known',
      'its arguments are unpacked from `*ARGS`',
      '`notes` (`{"a", "b"}`) is not statically known',
      'it takes at most 3 positional arguments (a TypeError in Python)',
      '`alias` is missing (a TypeError in Python)',
      '`language` is given twice (a TypeError in Python)',
      'it has no parameter `verb` (a TypeError in Python)',
      '`verbs` (`[name for name in ()]`) is not statically known',
      '`verbs` (`{1: "a", True: "b"}`) is not statically known',
      '`verbs` (`["build", get_verb()]`) is not statically known',
    ]);
  });

  it('reports the ValueErrors with the verbs argument as it is written', () => {
    const all = evaluate(
      py(
        'from vis_lang_interface import prompt',
        'NONE = ()',
        'A = prompt.routing("Go", "go", ("check_syntax", "build", "Build"))',
        'B = prompt.routing("Go", "go", verbs=NONE)',
        'C = prompt.routing("Go", "go", "build")',
      ),
    );
    assert.deepEqual(
      all.map((r) => r.kind === 'error' && [r.error.message, r.range.start.line, r.range.start.character, r.range.end.character]),
      [
        ['unknown language verbs: Build, check_syntax', 2, 31, 65],
        ['a language extension contributes at least one verb', 3, 37, 41],
        ['unknown language verbs: b, d, i, l, u', 4, 31, 38],
      ],
    );
  });
});
