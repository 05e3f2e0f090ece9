// No false positives from the SDK profile and the table: realistic valid extensions of every generation
// and layout (single files, packaged entries, helper modules, pinned and unpinned) give no error or warning.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeText } from '../../server/src/analysis';
import { initParser } from '../../server/src/parse/parser';
import type { VersionPin } from '../../server/src/sdk';
import { py } from '../helpers/fixture';

before(async () => {
  await initParser();
});

const cases: { name: string; uri: string; text: string; pins?: VersionPin[]; release: string }[] = [
  {
    name: 'G3 language extension entry (packaged, vis-agent>=0.2.26 in pyproject.toml)',
    uri: 'file:///work/vis-lang-toy/extension.py',
    pins: [{ source: 'pyproject', file: '/work/vis-lang-toy/pyproject.toml', requirement: 'vis-agent>=0.2.26' }],
    release: 'f3ef1e26',
    text: py`
      """Vis entrypoint for the toy language; the tools live in vis_lang_toy."""

      import blockether.vis.extension as vis
      from vis_lang_interface import presentation, prompt
      from vis_lang_interface.syntax import SyntaxGuard

      from vis_lang_toy.tools import SUFFIXES, ToyTools, _check_syntax

      ToyTools.format_code = vis.method(tag="mutation", activity=vis.Activity(label="Format toy code", show_start=False))(ToyTools.format_code)
      ToyTools.lint_code = vis.method(tag="verification", activity=vis.Activity(label="Lint toy code"))(ToyTools.lint_code)

      PROMPT = prompt.routing("Toy", "toy", ("format_code", "lint_code"), notes=("Lint before you format.",))
      GUARD = SyntaxGuard("toy", SUFFIXES, _check_syntax)

      vis.register_extension(
          vis.Extension(
              name="vis-lang-toy",
              description="Toy tools: format and lint.",
              version="1.0.0",
              alias="toy",
              symbols=[vis.Symbol(ToyTools(workspace_root=vis.workspace_root), name="toy")],
              prompt=PROMPT,
              op_hooks=[
                  vis.OpHook(["patch"], GUARD.before_patch),
                  vis.OpHook(["patch", "python_execution"], GUARD.after_edit, phase="after"),
              ],
              ctx=GUARD.ctx,
          )
      )
    `,
  },
  {
    name: 'G3 single file with settings, a Setting and durable state (unpinned)',
    uri: 'file:///work/.vis/extensions/notes.py',
    release: 'f3ef1e26',
    text: py`
      import blockether.vis.extension as vis

      LOUD = vis.Setting(id="notes_loud", label="Loud notes", default=False, scopes=["global", "project"])


      def remember(text: str) -> str:
          """Remember one note and return it."""
          vis.state["last"] = text
          vis.log("info", "remembered a note")
          if LOUD.value():
              vis.notify("Noted", "success")
          return text


      vis.register_extension(
          vis.Extension(
              name="notes",
              description="Keeps one note.",
              alias="notes",
              symbols=[vis.Symbol(remember, tag="mutation", activity=vis.Activity(label="Remember note"))],
              settings=[LOUD],
              slash_commands=[vis.SlashCommand("notes", lambda ctx: vis.ok("ok"), doc="Show the note.")],
          )
      )
    `,
  },
  {
    name: 'G3 PEP 723 script pinned to vis-agent>=0.2.45, with sequence records',
    uri: 'file:///work/.vis/extensions/pages.py',
    release: 'f3ef1e26',
    text: py`
      # /// script
      # requires-python = ">=3.11"
      # dependencies = ["vis-agent>=0.2.45"]
      # ///
      from __future__ import annotations

      from dataclasses import dataclass

      import blockether.vis.extension as vis


      @vis.sequence(field="items")
      @dataclass(frozen=True)
      class Page:
          """One page of results."""

          items: tuple[str, ...]
          total: int


      def search(query: str, *, limit: int = 20) -> Page:
          """Search the index."""
          return Page((), 0)


      vis.register_extension(vis.Extension(name="pages", description="Search pages.", alias="pages", symbols=[vis.Symbol(search, activity=vis.Activity(label="Search pages"))]))
    `,
  },
  {
    name: 'G2 packaged entry (greeter shape: a namespace object, vis-agent>=0.1.45)',
    uri: 'file:///work/vis-greeter/extension.py',
    pins: [{ source: 'pyproject', file: '/work/vis-greeter/pyproject.toml', requirement: 'vis-agent>=0.1.45' }],
    release: '00b3a0c1',
    text: py`
      """Vis entrypoint; the greeting logic lives in vis_greeter."""

      import blockether.vis.extension as vis
      from vis_greeter import Greeter

      vis.register(
          vis.Extension(
              name="vis-greeter",
              description="Typed greeting tools.",
              alias="greet",
              symbols=[vis.Symbol(Greeter(), name="greet")],
          )
      )
    `,
  },
  {
    name: 'G3 helper module of a package (methods declared, nothing registered)',
    uri: 'file:///work/vis-greeter/src/vis_greeter/__init__.py',
    release: 'f3ef1e26',
    text: py`
      import blockether.vis.extension as vis


      class Greeter:
          """Greeting tools."""

          @vis.method(activity=vis.Activity(label="Greet someone", show_start=False))
          def hello(self, name: str) -> str:
              """Greet one person by name."""
              return f"Hello, {name}!"
    `,
  },
  {
    name: 'G1 single file with the runtime calls of Vis 0.1.41',
    uri: 'file:///work/.vis/extensions/counter.py',
    release: 'vis-0.1.41',
    text: py`
      import vis


      def counter_bump(by: int = 1) -> int:
          """Add to the counter and return it."""
          value = int(vis.state.get("count", 0)) + by
          vis.state["count"] = value
          vis.log("debug", f"count is {value}")
          return value


      def ask_name(ctx):
          answer = vis.ask("Name", [vis.plaintext("name", label="Your name", is_required=True)])
          return vis.ok(f"Hello {answer['name']}") if answer else vis.err("cancelled")


      vis.extension(
          name="counter",
          description="Counts.",
          alias="counter",
          symbols=[vis.symbol(counter_bump, tag="mutation", is_hidden=False)],
          slash_commands=[vis.slash("hello", ask_name, doc="Say hello.")],
          op_hooks=[vis.op_hook(["fs_access"], lambda call: None)],
          env=["COUNTER_TOKEN"],
      )
    `,
  },
  {
    name: 'a conditional fallback import of both SDKs',
    uri: 'file:///work/.vis/extensions/both.py',
    release: 'f3ef1e26',
    text: py`
      try:
          import blockether.vis.extension as vis
      except ImportError:
          import vis

      vis.register_extension(vis.Extension(name="both", description="Loads on either SDK."))
    `,
  },
];

describe('valid extensions give no error or warning under the SDK profile', () => {
  for (const c of cases) {
    it(c.name, () => {
      const { model, findings } = analyzeText(c.uri, c.text, {}, 'auto', c.pins ?? []);
      assert.deepEqual(
        findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.rule} ${f.message}`),
        [],
      );
      assert.equal(model.sdk?.release?.id, c.release);
      assert.equal(model.sdk?.conflict, undefined);
    });
  }
});
