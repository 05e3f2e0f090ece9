import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { previewDocs, previewPrompt, type PreviewOptions } from '../../server/src/docs/preview';
import { contractToolDocSource, docstringToolDocSource, type ToolDocSource } from '../../server/src/docs/toolDocs';
import { loadTokenizer } from '../../server/src/docs/tokens';
import { analyze, pyLines as py, ready } from '../helpers/fixture';

before(async () => {
  await ready();
  await loadTokenizer();
});

const FIXTURES = path.join(__dirname, 'fixtures');
const CURRENT: PreviewOptions = { tools: contractToolDocSource(() => 'C3'), routingVersion: 'current' };

function fixture(name: string) {
  return analyze(fs.readFileSync(path.join(FIXTURES, `${name}.py`), 'utf8'), `file:///work/ext/${name}.py`);
}

describe('docs preview snapshots', () => {
  // Each fixture is a realistic extension file; <name>.preview.md beside it is the exact preview.
  for (const name of ['greeter', 'lang_python', 'callable_prompt', 'g1_counter', 'broken']) {
    it(`previews ${name}.py exactly`, () => {
      const expected = fs.readFileSync(path.join(FIXTURES, `${name}.preview.md`), 'utf8');
      assert.equal(previewDocs(fixture(name), CURRENT).text, expected);
    });
  }

  it('gives each part its own count and totals their sum', () => {
    const p = previewDocs(fixture('greeter'), CURRENT);
    assert.deepEqual(
      p.parts.map((x) => [x.title, x.counted, x.tokens]),
      [
        ['Snapshot row', true, 11],
        ['Prompt: static string', true, 11],
        ['Tool hello: apropos row', true, 9],
        ['Tool hello: doc(hello)', true, 61],
        ['Tool forget: apropos row', true, 15],
        ['Tool forget: doc(forget)', true, 34],
        ['Tool reset (hidden): apropos row', true, 10],
        ['Tool reset (hidden): doc(reset)', true, 15],
        ['Tool store.count: apropos row', true, 9],
        ['Tool store.count: doc(store.count)', true, 13],
        ['Tool store.items.put: apropos row', true, 14],
        ['Tool store.items.put: doc(store.items.put)', true, 29],
        ['Tool store.items.dump (hidden): apropos row', true, 11],
        ['Tool store.items.dump (hidden): doc(store.items.dump)', true, 16],
        ['Slash command /greet', true, 18],
        ['Slash command /wave', true, 2],
      ],
    );
    assert.equal(p.tokens, 278);
    assert.equal(
      p.parts[3].body,
      'Say hello to someone by name.\n\nUse the name exactly as the user gave it. With shout=True the\ngreeting is upper-cased.\n\n' +
        'Effect: observation\n\nParameters:\n- name: str (positional_or_keyword; required)\n- shout: bool (keyword_only; default False)\n\nReturns: str',
    );
  });

  it('says so when the file registers no extension', () => {
    const p = previewDocs(analyze(py('import blockether.vis.extension as vis', 'X = 1')), CURRENT);
    assert.deepEqual(p, {
      text:
        'No Vis extension is registered in /work/ext/extension.py: there is no register_extension(...), register(...) or vis.extension(...) ' +
        'call to read, so there is nothing the model would see.\n',
      parts: [],
      tokens: 0,
    });
  });
});

describe('prompt preview', () => {
  it('renders a routing prompt in the wording asked for', () => {
    assert.equal(
      previewPrompt(fixture('lang_python'), { ...CURRENT, routingVersion: 'legacy' }).text,
      [
        '# Prompt of lang-python \u00b7 155 tokens',
        '',
        'Read statically from /work/ext/lang_python.py (G3); nothing was run. Tokens are counted in o200k_base; each part is counted on its own, and the total is their sum.',
        '',
        '## Prompt: prompt.routing, legacy wording (vis-lang-interface 2.1.0 to before 2.6.2) \u00b7 155 tokens',
        '',
        '```text',
        'py surface active \u2014 Python through its own toolchain:',
        '  py.format_code \u00b7 py.lint_code \u00b7 py.run_tests',
        '  py.repl_start \u00b7 py.repl_eval \u00b7 py.repl_stop',
        'These verbs are the Python toolchain here: reach for them instead of a shell line that runs the formatter, the linter or the test command, and read the typed result they answer rather than parsing output.',
        'A REPL outlives the call that started it and nothing reprints that it is alive: `py.repl_status` is what says so, `py.repl_stop` is what ends it. Evaluating in a live one is how you check a change without paying the toolchain\'s startup again.',
        "Tests run with the project's own pytest configuration.",
        '```',
        '',
      ].join('\n'),
    );
  });

  it('names a callable prompt and where it is defined', () => {
    assert.equal(
      previewPrompt(fixture('callable_prompt'), CURRENT).text,
      [
        '# Prompt of tickets \u00b7 0 tokens',
        '',
        'Read statically from /work/ext/callable_prompt.py (G2); nothing was run. Tokens are counted in o200k_base; each part is counted on its own, and the total is their sum.',
        '',
        '## Prompt: computed per turn \u00b7 not counted',
        '',
        '> Vis calls build_prompt() (/work/ext/callable_prompt.py:4) for the prompt text; it is known only when it runs.',
        '',
      ].join('\n'),
    );
  });

  const HEAD = ['import os', 'import blockether.vis.extension as vis', 'from vis_lang_interface import prompt'];
  const promptBody = (...lines: string[]) => {
    const p = previewPrompt(analyze(py(...HEAD, ...lines)), CURRENT);
    assert.equal(p.parts.length, 1);
    return [p.parts[0].title, p.parts[0].body, p.parts[0].tokens];
  };

  it('explains a routing call it cannot evaluate, and prompts it cannot know', () => {
    assert.deepEqual(promptBody('vis.register_extension(vis.Extension(name="g", description="G", prompt=prompt.routing("Go", "go", os.environ["VERBS"])))'), [
      'Prompt: prompt.routing, not evaluated',
      'prompt.routing(...) (/work/ext/extension.py:4) cannot be evaluated statically: `verbs` (`os.environ["VERBS"]`) is not statically known.',
      0,
    ]);
    assert.deepEqual(promptBody('PROMPTS = {"go": "Use go."}', 'vis.register_extension(vis.Extension(name="g", description="G", prompt=PROMPTS["go"]))'), [
      'Prompt: not statically known',
      'prompt=PROMPTS["go"] (/work/ext/extension.py:5) is not a string, a prompt.routing(...) call or a function defined in this file.',
      0,
    ]);
    assert.deepEqual(promptBody('vis.register_extension(vis.Extension(name="g", description="G"))'), ['Prompt: none', 'The extension gives no prompt=.', 0]);
  });

  it('reads a static prompt through constants and implicit concatenation', () => {
    assert.deepEqual(
      promptBody('BASE = ("Use the go verbs. "', '        "Never run go directly.")', 'P = BASE', 'EXT = vis.Extension(name="g", description="G", prompt=P)', 'vis.register_extension(EXT)'),
      ['Prompt: static string', 'Use the go verbs. Never run go directly.', 10],
    );
  });
});

describe('ToolDocSource seam', () => {
  it('the docstring source lists function tools, namespace members and hidden flags in declaration order', () => {
    const tools = docstringToolDocSource.tools(fixture('greeter'));
    assert.deepEqual(
      tools.map((t) => [t.name, t.hidden, t.apropos, t.range.start.line]),
      [
        ['hello', false, 'Say hello to someone by name.', 61],
        ['forget', false, 'Forget a remembered name. Returns False when it was not known.', 62],
        ['reset', true, 'Drop every remembered name (maintenance only).', 63],
        ['store.count', false, 'How many values are stored.', 45],
        ['store.items.put', false, 'Store a value. Replaces the previous value.', 30],
        ['store.items.dump', true, 'Every stored value, for debugging.', 35],
      ],
    );
  });

  it('the preview shows whatever the source gives', () => {
    const contracts: ToolDocSource = {
      tools: () => [
        {
          name: 'hello',
          hidden: false,
          apropos: 'Say hello.',
          doc: 'Say hello.\n\nEffect: observation\n\nParameters:\n- name: str (positional_or_keyword; required)\n\nReturns: str',
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        },
      ],
    };
    const p = previewDocs(analyze(py('import blockether.vis.extension as vis', 'vis.register_extension(vis.Extension(name="g", description="Greets."))')), {
      tools: contracts,
      routingVersion: 'current',
    });
    assert.equal(
      p.text,
      [
        '# Model-facing docs of g \u00b7 34 tokens',
        '',
        'Read statically from /work/ext/extension.py (G3); nothing was run. Tokens are counted in o200k_base; each part is counted on its own, and the total is their sum.',
        '',
        '## Snapshot row \u00b7 5 tokens',
        '',
        '```text',
        'g \u2014 Greets.',
        '```',
        '',
        '## Prompt: none \u00b7 not counted',
        '',
        '> The extension gives no prompt=.',
        '',
        '## Tool hello: apropos row \u00b7 5 tokens',
        '',
        '```text',
        'hello \u2014 Say hello.',
        '```',
        '',
        '## Tool hello: doc(hello) \u00b7 24 tokens',
        '',
        '```text',
        'Say hello.',
        '',
        'Effect: observation',
        '',
        'Parameters:',
        '- name: str (positional_or_keyword; required)',
        '',
        'Returns: str',
        '```',
        '',
      ].join('\n'),
    );
  });
});
