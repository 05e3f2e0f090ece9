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
  it('ROUTE-003: the default verbs are one warning on the call; prompt.VERBS one on the argument', () => {
    const tools = ['class Tools:', '    """Go tools."""', '', '    def build(self) -> str:', '        """Build."""', '        return ""', ''];
    const ext = (prompt: string) => `vis.register_extension(vis.Extension(name="go", description="Go", alias="go", symbols=[vis.Symbol(Tools(), name="go")], prompt=${prompt}))`;
    const missing = 'go.format_code, go.lint_code, go.run_tests, go.repl_start, go.repl_status, go.repl_connect, go.repl_eval, go.repl_stop';
    // On the callee `prompt.routing`, and on the `prompt.VERBS` argument.
    const callee = ext('prompt.routing("Go", "go")').indexOf('prompt.routing(');
    const verbs = ext('prompt.routing("Go", "go", prompt.VERBS)').indexOf('prompt.VERBS');
    assert.deepEqual(routingFindings(py(...HEAD, ...tools, ext('prompt.routing("Go", "go")'))), [
      `ROUTE-003 warning 9:${callee}-9:${callee + 14} the routing prompt tells the model to call ${missing} (the default verbs), but this extension exports no tools by those names: pass verbs= with the ones it exports`,
    ]);
    assert.deepEqual(routingFindings(py(...HEAD, ...tools, ext('prompt.routing("Go", "go", prompt.VERBS)'))), [
      `ROUTE-003 warning 9:${verbs}-9:${verbs + 12} the routing prompt tells the model to call ${missing}, but this extension exports no tools by those names: pass verbs= with the ones it exports`,
    ]);
    assert.deepEqual(routingFindings(py(...HEAD, ...tools, ext('prompt.routing("Go", "go", ["build"])'))), []);
  });

  it('ROUTE-003 stays silent unless every tool of the extension is known', () => {
    const route = 'prompt=prompt.routing("Go", "go", ["build"])';
    const files = [
      // A Symbol whose object is not known, a splat of tools, a computed list, a ** splat, language surfaces, two extensions, a computed prompt.
      [...HEAD, 'from .tools import TOOLS', `vis.register_extension(vis.Extension(name="go", description="Go", alias="go", symbols=[vis.Symbol(TOOLS, name="go")], ${route}))`],
      [...HEAD, 'from .tools import TOOLS', `vis.register_extension(vis.Extension(name="go", description="Go", alias="go", symbols=[*TOOLS], ${route}))`],
      [...HEAD, 'from .tools import make', `vis.register_extension(vis.Extension(name="go", description="Go", alias="go", symbols=make(), ${route}))`],
      [...HEAD, 'from .tools import OPTIONS', `vis.register_extension(vis.Extension(name="go", description="Go", ${route}, **OPTIONS))`],
      [...HEAD, 'from .tools import SURFACE', `vis.register_extension(vis.Extension(name="go", description="Go", language_tools=[SURFACE], ${route}))`],
      [...HEAD, 'A = vis.Extension(name="a", description="A")', `vis.register_extension(vis.Extension(name="go", description="Go", ${route}))`],
      [...HEAD, 'P = prompt.routing("Go", "go", ["build"])', 'vis.register_extension(vis.Extension(name="go", description="Go", prompt=P + "\\nBe brief."))'],
    ];
    for (const lines of files) assert.deepEqual(routingFindings(py(...lines)), [], lines.at(-1));
  });
});
