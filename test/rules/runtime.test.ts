// The runtime families: what tools and callbacks do when they run (vis-sdk.md §5.1–§5.3): durable state
// values, log and notify levels, vis.fs operations, vis.ask forms and vis.live views. Each rule has a
// failing case with its exact messages and ranges, and a passing one; the realistic extensions in
// test/fixtures/runtime use every family correctly and get no error or warning.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';
import { fixture, findings, findingsOf, py } from '../helpers/fixture';
import { NOTES, project } from '../helpers/project';

before(async () => {
  await initParser();
});

const G3 = 'import blockether.vis.extension as vis\n\n';
const REG = '\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(tool)]))\n';
/** A G3 file whose one tool runs `body` (indented four spaces). */
const tool = (body: string) => G3 + 'def tool(name: str) -> str:\n    """Do one thing."""\n' + body.replace(/^/gm, '    ') + '\n    return name\n' + REG;

interface Case {
  rule: string;
  bad: string;
  messages: string[];
  good: string;
}

const cases: Case[] = [
  {
    rule: 'STATE-001',
    bad: tool('vis.state["k"] = [|{1, 2}|]\nvis.state["t"] = [|(1, 2)|]\nvis.state.update(when=[|datetime.datetime.now()|])\nvis.state["rows"] = [1, [|b"x"|]]'),
    messages: [
      'vis.state keeps plain data (dict, list, str, number, bool), not a set: store a list',
      'vis.state keeps plain data (dict, list, str, number, bool): a tuple reads back as a list',
      'vis.state keeps plain data (dict, list, str, number, bool), not a datetime: store its isoformat() or a timestamp',
      'vis.state keeps plain data (dict, list, str, number, bool), not bytes',
    ],
    good: tool('vis.state["k"] = [1, 2]\nvis.state["m"] = {"a": 1, "b": [True, 2.5, "x"]}\nvis.state.update(last=name)\nseen = set()\nvis.state["seen"] = sorted(seen)'),
  },
  {
    rule: 'STATE-002',
    bad: tool('vis.state["pending"] = [|None|]'),
    messages: ["writing None deletes the key 'pending' (a stored None reads as missing): write del vis.state['pending'] or vis.state.pop(...) to say so"],
    good: tool('del vis.state["pending"]\nvis.state.pop("other", None)\nvalue = None\nvis.state["x"] = value or 0'),
  },
  {
    rule: 'LOG-001',
    bad: tool('vis.log([|"warning"|], "careful")\nvis.log([|"deployed"|], "info")\nvis.log([|"loud"|], "x")'),
    messages: [
      "'warning' is no vis.log level (trace, debug, info, warn or error): Vis shows it as given; did you mean 'warn'?",
      "vis.log takes the level first: vis.log('info', 'deployed')",
      "'loud' is no vis.log level (trace, debug, info, warn or error): Vis shows it as given",
    ],
    good: tool('vis.log("warn", "careful")\nvis.log("trace", f"{name}")\nlevel = "custom"\nvis.log(level, "x")'),
  },
  {
    rule: 'LOG-002',
    bad: tool('vis.notify("x", [|"debug"|])\nvis.notify("y", level=[|"warning"|])'),
    messages: [
      "'debug' is no vis.notify level (info, success, warn or error): Vis shows it as given; did you mean 'info'?",
      "'warning' is no vis.notify level (info, success, warn or error): Vis shows it as given; did you mean 'warn'?",
    ],
    good: tool('vis.notify("x")\nvis.notify("done", "success")\nvis.notify("y", level="warn")'),
  },
  {
    rule: 'FS-001',
    bad: tool('text = [|vis.fs.readtext|]("a.txt")\n[|vis.fs.delete|]("b.txt")'),
    messages: ["'_Fs' object has no attribute 'readtext'", "'_Fs' object has no attribute 'delete'"],
    good: tool('text = vis.fs.read_text("a.txt")\nif vis.fs.exists("b"):\n    vis.fs.remove("b")'),
  },
  {
    rule: 'ASK-001',
    bad: tool('vis.ask("t", [{"name": "a", [|"isRequired"|]: True}, {"name": "b", [|"max-length"|]: 3}])\nvis.ask("t", [vis.plaintext("c", [|maxLength|]=3)], [|submitLabel|]="Go")'),
    messages: [
      "field key 'isRequired' is not snake_case: Vis refuses it; write 'is_required'",
      "field key 'max-length' is not snake_case: Vis refuses it; write 'max_length'",
      "field key 'maxLength' is not snake_case: Vis refuses it; write 'max_length'",
      "dialog option 'submitLabel' is not snake_case: Vis refuses it; write 'submit_label'",
    ],
    good: tool('vis.ask("t", [{"name": "a", "is_required": True}, vis.plaintext("c", max_length=3)], submit_label="Go", timeout_ms=0)'),
  },
  {
    rule: 'ASK-002',
    bad: tool(
      'vis.ask([|""|], [{"name": "a"}])\nvis.ask("t", [{"name": "a", "type": [|"text"|]}])\nvis.ask("t", [vis.select("env", [|[]|])])\nvis.ask("t", [{"name": "a"}, {"name": [|"a"|]}])\nvis.ask("t", [vis.slider("s", min=5, max=[|5|])])\nvis.ask("t", [|[vis.heading("Only prose")]|])',
    ),
    messages: [
      'a request needs a title',
      "unknown field type 'text' — one of checkbox, multiline, multiselect, otp, password, plaintext, range, select",
      "'env' is a select and needs options to pick from",
      "two fields are named 'a'",
      "'s' has min 5 and max 5: a track needs room",
      'a request needs at least one field that answers',
    ],
    good: tool('vis.ask("t", [vis.heading("Where"), vis.select("env", [vis.option("a"), vis.option("b")]), vis.slider("s", min=0, max=10), {"name": "n", "type": "multiline"}])\nvis.ask("t", fields_from_elsewhere())'),
  },
  {
    rule: 'LIVE-001',
    bad: tool('with vis.live("L", [vis.status("a", "x", [|isActive|]=True)], [|flushMs|]=50) as view:\n    pass'),
    messages: ["node key 'isActive' is not snake_case: Vis refuses it; write 'is_active'", "view option 'flushMs' is not snake_case: Vis refuses it; write 'flush_ms'"],
    good: tool('with vis.live("L", [vis.status("a", "x")], flush_ms=50, description="d") as view:\n    view["a"].set("y")'),
  },
  {
    rule: 'LIVE-002',
    bad: tool('with vis.live("L", [vis.status("a"), vis.row(vis.progress([|"a"|]))]) as view:\n    pass\nwith vis.live("M", [vis.divider([|""|])]) as other:\n    pass'),
    messages: ["two nodes answer to 'a'", 'a divider node needs an id'],
    good: tool('with vis.live("L", [vis.status("a"), vis.row("r", vis.progress("b"), vis.output("log"))]) as view:\n    pass'),
  },
];

const EXT = (fields: string) => `vis.register_extension(vis.Extension(name="t", description="d", alias="t"${fields}))\n`;

cases.push(
  {
    rule: 'CB-001',
    bad:
      G3 +
      'from vis_lang_interface.syntax import SyntaxGuard\n\ndef show():\n    return "x"\n\ndef check(sources):\n    return None\n\nguard = SyntaxGuard("toml", (".toml",), [|check|])\n' +
      EXT(', prompt=[|lambda: "x"|], activation=[|lambda: True|], slash_commands=[vis.SlashCommand("s", [|show|])], op_hooks=guard.op_hooks()'),
    messages: [
      "check() takes 1 positional argument but 2 were given: the SyntaxGuard check is called with (sources, root)",
      "<lambda>() takes 0 positional arguments but 1 was given: the Extension prompt is called with (env)",
      "<lambda>() takes 0 positional arguments but 1 was given: the Extension activation is called with (env)",
      "show() takes 0 positional arguments but 1 was given: the SlashCommand run is called with (ctx)",
    ],
    good:
      G3 +
      'import functools\nfrom vis_lang_interface.syntax import SyntaxGuard\n\ndef show(ctx, *rest):\n    return "x"\n\ndef check(sources, root=None):\n    return None\n\ndef repair(source, *, original, spans, parses_clean, **more):\n    return None\n\n@functools.cache\ndef wrapped():\n    return "x"\n\nguard = SyntaxGuard("toml", (".toml",), check, repair=repair)\n' +
      EXT(', prompt=lambda env: "x", activation=lambda *a: True, ctx=wrapped, slash_commands=[vis.SlashCommand("s", show)], op_hooks=guard.op_hooks()'),
  },
  {
    rule: 'CB-002',
    bad: G3 + 'def context(env):\n    if env.get("cwd"):\n        return [|[env["cwd"]]|]\n    return {[|"session_id"|]: 1, "session_env": {}, "t": 2}\n\n' + EXT(', ctx=context'),
    messages: [
      'ctx returns a dict of what the extension adds to the session context, not a list',
      "ctx key 'session_id' is reserved: Vis keeps the engine_ and session_ keys (session_env is the one an extension may add); put it under a key of the extension's own",
    ],
    good: G3 + 'def context(env):\n    if not env:\n        return {}\n    return {"t": {"cwd": env.get("cwd")}, "session_env": {"T_HOME": "/t"}}\n\n' + EXT(', ctx=context'),
  },
  {
    rule: 'CB-003',
    bad: G3 + 'def show(ctx):\n    if ctx.get("args"):\n        return len(ctx["args"]) and 3\n    return [|3|]\n\n' + EXT(', slash_commands=[vis.SlashCommand("s", show), vis.SlashCommand("t", lambda ctx: [|[1]|])]'),
    messages: ['a slash command returns vis.ok(...), vis.err(...) or text, not a number', 'a slash command returns vis.ok(...), vis.err(...) or text, not a list'],
    good: G3 + 'def show(ctx):\n    if not ctx.get("args"):\n        return vis.err("no args")\n    return vis.ok("done") if ctx["raw"] else "text"\n\n' + EXT(', slash_commands=[vis.SlashCommand("s", show)]'),
  },
  {
    rule: 'CB-004',
    bad: G3 + 'def audit(call):\n    if call.get("result") is None:\n        return [|vis.block("failed")|]\n    return None\n\n' + EXT(', op_hooks=[vis.OpHook(["patch"], audit, phase="after")]'),
    messages: ['an after hook\'s return is ignored: this vis.block(...) refuses nothing, the operation already ran; refuse it in a before hook (phase="before")'],
    good: G3 + 'def guard(call):\n    return vis.block("no")\n\n' + EXT(', op_hooks=[vis.OpHook(["patch"], guard), vis.OpHook(["shell"], guard, phase="before")]'),
  },
);

const LANG = G3 + 'from vis_lang_interface import Diagnostic, FormatResult, LintResult, prompt\nfrom vis_lang_interface.syntax import SyntaxGuard\n\n';

cases.push(
  {
    rule: 'LANG-001',
    bad: LANG + 'ROUTING = prompt.routing("toml", "toml", ("format_code",), [|("Use it.",)|])\n\ndef check(sources, root):\n    rows = [[|Diagnostic|]("a", 1, 1, "error")]\n    return LintResult.of("toml", rows, files=1, [|extra|]=2)\n',
    messages: [
      'routing() takes from 2 to 3 positional arguments but 4 were given',
      "Diagnostic.__init__() missing 1 required positional argument: 'message'",
      "LintResult.of() got an unexpected keyword argument 'extra'",
    ],
    good: LANG + 'ROUTING = prompt.routing("toml", "toml", ("format_code",), notes=("Use it.",))\n\ndef check(sources, root):\n    rows = [Diagnostic("a", 1, 1, "error", "m", rule="x")]\n    return LintResult.of("toml", rows, len(sources))\n',
  },
  {
    rule: 'LANG-002',
    bad: LANG + 'def check(sources, root):\n    return [Diagnostic("a", 1, 1, [|"fatal"|], "m"), Diagnostic("a", 0, 0, level=[|"warn"|], message="m")]\n',
    messages: ["level must be one of ('error', 'warning', 'info'), not 'fatal'", "level must be one of ('error', 'warning', 'info'), not 'warn'"],
    good: LANG + 'def check(sources, root, level="error"):\n    return [Diagnostic("a", 1, 1, "warning", "m"), Diagnostic("a", 1, 1, level, "m")]\n',
  },
  {
    rule: 'LANG-003',
    bad: LANG + 'def fmt(path: str) -> FormatResult:\n    """Format one file."""\n    return FormatResult("python", [|"a.py"|], ())\n\nguard = SyntaxGuard("toml", [|".toml"|], lambda sources, root: None)\n',
    messages: [
      "FormatResult changed is a tuple of strings: the bare string 'a.py' is read as its characters; write ('a.py',)",
      "SyntaxGuard suffixes is a tuple of strings: the bare string '.toml' is read as its characters; write ('.toml',)",
    ],
    good: LANG + 'def fmt(path: str) -> FormatResult:\n    """Format one file."""\n    return FormatResult("python", (path,), (), lines_added=1)\n\nguard = SyntaxGuard("toml", (".toml",), lambda sources, root: None)\n',
  },
  {
    rule: 'LANG-004',
    bad: LANG + 'guard = SyntaxGuard("toml", [|()|], lambda sources, root: None)\n',
    messages: ['SyntaxGuard needs at least one file suffix'],
    good: LANG + 'SUFFIXES = [".toml"]\nguard = SyntaxGuard("toml", SUFFIXES, lambda sources, root: None)\n',
  },
);

const ENV_REG = (env: string) => `\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(tool)]${env}))\n`;
const ENV_TOOL = 'def tool(name: str) -> str:\n    """Do one thing."""\n    return name + os.environ.get("ACME_TOKEN", "")\n';

cases.push(
  {
    rule: 'ENV-001',
    bad: 'import os\n' + G3 + 'KEY = [|os.environ["ACME_KEY"]|]\nTOKEN = [|os.getenv("ACME_TOKEN")|]\nHOME = os.environ.get("HOME")\n\n' + ENV_TOOL + ENV_REG(', env=["ACME_KEY", "ACME_TOKEN"]') + 'LATE = os.environ["ACME_KEY"]\n',
    messages: [
      "'ACME_KEY' is read at import, before the registration resolves the declared env: read it in the tool or callback that needs it",
      "'ACME_TOKEN' is read at import, before the registration resolves the declared env: read it in the tool or callback that needs it",
    ],
    good: 'import os\n' + G3 + ENV_TOOL + ENV_REG(', env=["ACME_TOKEN"]'),
  },
  {
    rule: 'ENV-002',
    bad: 'import os\nfrom os import environ\n' + G3 + 'def tool(name: str) -> str:\n    """Do one thing."""\n    key = [|environ["ACME_SECRET"]|]\n    return name + key + [|os.environ.get("ACME_TOKEN", "")|]\n' + ENV_REG(', env=["ACME_KEY"]'),
    messages: [
      "'ACME_SECRET' is read but not declared in env=: Vis resolves only the variables an extension declares; add it to env=",
      "'ACME_TOKEN' is read but not declared in env=: Vis resolves only the variables an extension declares; add it to env=",
    ],
    good: 'import os\n' + G3 + 'NAMES = ["ACME_TOKEN"]\n\n' + ENV_TOOL.replace('return name', 'home = os.environ["HOME"] + os.getenv("VIS_HOME", "")\n    return home + name') + ENV_REG(', env=NAMES'),
  },
);

cases.push(
  {
    rule: 'DESIGN-001',
    bad: G3 + 'def fetch(url: str, api_key: str = [|"sk-live-123"|], retries: int = 3) -> str:\n    """Fetch one URL."""\n    return url\n\nclass Tools:\n    """Tools."""\n\n    def get(self, password: str = [|"hunter2"|]) -> str:\n        """Get it."""\n        return password\n\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(fetch), vis.Symbol(Tools(), name="tools")]))\n',
    messages: [
      "api_key defaults to a literal 'sk-l…': the tool's contract shows literal defaults to the model; read the credential from a declared env= variable or a setting when the tool runs",
      "password defaults to a literal 'hunt…': the tool's contract shows literal defaults to the model; read the credential from a declared env= variable or a setting when the tool runs",
    ],
    good: G3 + 'def fetch(url: str, api_key: str = "", token: str | None = None, page_token: str = "start", token_type: str = "bearer") -> str:\n    """Fetch one URL."""\n    return url\n\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(fetch)]))\n',
  },
  {
    rule: 'DESIGN-002',
    bad: G3 + 'def [|fetch|](url: str) -> str:\n    """fetch(url: str) -> str\n\n    Fetch one URL.\n    """\n    return url\n\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(fetch)]))\n',
    messages: ["the docstring of fetch opens with its signature: the first line is the tool's apropos preview and the model already sees the signature; say what the tool does"],
    good: G3 + 'def fetch(url: str) -> str:\n    """Fetch one URL; fetch(url) never follows redirects."""\n    return url\n\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(fetch)]))\n',
  },  {
    rule: 'DESIGN-003',
    bad:
      G3 +
      'import enum\nfrom enum import IntEnum\nfrom pathlib import Path\nfrom typing import NamedTuple, Optional, TypedDict\n\n' +
      'class Level(IntEnum):\n    LOW = 1\n\nclass Severe(Level):\n    pass\n\nclass Reading(TypedDict):\n    value: int\n\nclass Point(NamedTuple):\n    x: int\n\n' +
      'def measure(level: [|Level|], worst: [|Optional[Severe]|] = None, where: [|Path|] = Path("."), *, tags: [|list|], extra: [|dict | None|] = None) -> [|Reading|]:\n    """Measure."""\n    return {"value": 1}\n\n' +
      'class Tools:\n    """Tools."""\n\n    def locate(self, points: [|list[Point]|]) -> [|tuple[Path, ...]|]:\n        """Locate."""\n        return ()\n\n' +
      'vis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(measure), vis.Symbol(Tools(), name="tools")]))\n',
    messages: [
      "parameter 'level' is Level, an Enum: the model sees only its name, 'Level (opaque)', not its values; use a Literal[...] of its values",
      "parameter 'worst' holds Severe, an Enum: the model sees only its name, 'Severe (opaque)', not its values; use a Literal[...] of its values",
      "parameter 'where' is Path: the model sees only the name 'Path (opaque)'; take the path as a str",
      "parameter 'tags' is a bare list: the model sees only the name 'list (opaque)'; name its item types (list[str]) or use a @dataclass record",
      "parameter 'extra' holds a bare dict: the model sees only the name 'dict (opaque)'; name its item types (dict[str, str]) or use a @dataclass record",
      "the return type is Reading, a TypedDict: the model sees only its name, 'Reading (opaque)', not its fields; make it a @dataclass record, whose fields the contract shows",
      "parameter 'points' holds Point, a NamedTuple: the model sees only its name, 'Point (opaque)', not its fields; make it a @dataclass record, whose fields the contract shows",
      "the return type holds Path: the model sees only the name 'Path (opaque)'; take the path as a str",
    ],
    good:
      G3 +
      'from dataclasses import dataclass\nfrom enum import Enum\nfrom typing import Literal\nfrom acme.types import Mode\n\nclass Color(Enum):\n    RED = "red"\n\nclass Plain:\n    pass\n\n@dataclass\nclass Reading:\n    value: int\n\n' +
      // A name bound twice (an Enum, then a Literal alias): which one the SDK sees is not certain.
      'class Shade(Enum):\n    DARK = "dark"\n\nShade = Literal["dark", "light"]\n\n' +
      'def measure(color: Literal["red"], mode: Mode, plain: Plain, shade: Shade, rows: list[dict], pairs: dict[str, int], when: "Undefined", made: make_type()) -> dict:\n    """Measure."""\n    return {}\n\n' +
      'def reading() -> list[Reading]:\n    """Read."""\n    return []\n\n' +
      'def helper(color: Color) -> Color:\n    return color\n\n' +
      'vis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(measure), vis.Symbol(reading)]))\n',
  },
  {
    rule: 'DESIGN-004',
    bad:
      G3 +
      'import json\nimport subprocess\nimport threading\nimport time\nimport urllib.request\nfrom pathlib import Path\n\nimport httpx\nimport requests\n\n' +
      'CONFIG = json.load([|open|]("config.json"))\nDATA = [|Path("data.json").read_text|]()\nwith [|open|]("notes.txt") as fh:\n    NOTES = fh.read()\n' +
      'try:\n    [|subprocess.run|](["git", "pull"])\nexcept OSError:\n    pass\n' +
      'TOKEN = [|requests.post|]("https://auth.example/login", json={}).json()\nPAGE = [|httpx.get|]("https://example.com")\n' +
      'worker = threading.Thread(target=print, daemon=True)\n[|worker.start|]()\n[|threading.Thread(target=print).start|]()\n[|time.sleep|](1)\n[|urllib.request.urlopen|]("https://example.com")\n\n' +
      'def greet(name: str) -> str:\n    """Greet."""\n    return name\n\n' +
      'vis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(greet)], prompt=[|Path("prompt.md").read_text|]()))\n',
    messages: [
      'open(...) reads or writes a file when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'Path(...).read_text(...) reads or writes a file when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'open(...) reads or writes a file when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'subprocess.run(...) runs a process when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'requests.post(...) makes a network request when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'httpx.get(...) makes a network request when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'worker.start(...) starts background work when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'threading.Thread(...).start(...) starts background work when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'time.sleep(...) holds up loading when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'urllib.request.urlopen(...) makes a network request when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
      'Path(...).read_text(...) reads or writes a file when Vis imports the extension, on every load and /reload: do it in the tool or callback that needs it',
    ],
    good:
      G3 +
      'import subprocess\nfrom pathlib import Path\n\nHERE = Path(__file__).parent\nDEFAULTS = Path("defaults.json")\n\n' +
      'def open(name):\n    return name\n\nopen("x")\n\n' +
      'def _hooks():\n    return [vis.OpHook("before", guard, ["shell"])]\n\n' +
      'def guard(call):\n    subprocess.run(["true"])\n    return None\n\n' +
      'def greet(name: str) -> str:\n    """Greet."""\n    return DEFAULTS.read_text() + name\n\n' +
      'vis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(greet)], op_hooks=_hooks(), ctx=lambda: {"n": len(Path("x").read_text())}))\n\n' +
      'if __name__ == "__main__":\n    subprocess.run(["pytest"])\n    print(Path("x").read_text())\n',
  },
  {
    rule: 'ROUTE-003',
    bad:
      G3 +
      'from vis_lang_interface import prompt\n\nclass Tools:\n    """Toy tools."""\n\n    def format_code(self, paths: list[str]) -> str:\n        """Format."""\n        return ""\n\n' +
      'def run_tests(selector: str = "") -> str:\n    """Test."""\n    return ""\n\n' +
      'VERBS = ("format_code", [|"lint_code"|], [|"run_tests"|], "lint_code")\nPROMPT = prompt.routing("Toy", "toy", VERBS)\n' +
      'vis.register_extension(vis.Extension(name="toy", description="d", alias="toy", symbols=[vis.Symbol(Tools(), name="toy"), vis.Symbol(run_tests)], prompt=PROMPT))\n',
    messages: [
      "the routing prompt tells the model to call toy.lint_code, but this extension exports no tool by that name: export lint_code on the Symbol named 'toy', or drop the verb",
      "the routing prompt tells the model to call toy.run_tests, but this extension exports it as run_tests, not under toy: export run_tests on the Symbol named 'toy', or drop the verb",
    ],
    good:
      G3 +
      'from vis_lang_interface import prompt\nfrom .more import MORE\n\nclass Tools:\n    """Toy tools."""\n\n    def format_code(self, paths: list[str]) -> str:\n        """Format."""\n        return ""\n\n    def lint_code(self, paths: list[str]) -> str:\n        """Lint."""\n        return ""\n\n' +
      'A = prompt.routing("Toy", "toy", ("format_code", "lint_code"), notes=("Lint first.",))\nB = prompt.routing("Toy", "toy")\n' +
      'vis.register_extension(vis.Extension(name="toy", description="d", alias="toy", symbols=[vis.Symbol(Tools(), name="toy")], prompt=A))\n',
  },
);

describe('runtime rule families', () => {
  for (const c of cases) {
    it(`${c.rule}: reports ${c.messages.length} finding(s) with the message and range`, () => {
      const { text, ranges } = fixture(c.bad);
      assert.deepEqual(
        findingsOf(c.rule, text),
        c.messages.map((message, i) => ({ message, range: ranges[i] })),
      );
    });
    it(`${c.rule}: stays silent on a valid file`, () => {
      assert.deepEqual(findingsOf(c.rule, c.good), []);
    });
  }

  it('reads calls where they run: nested functions, methods, lambdas and callbacks, through imports made in the body', () => {
    const text = py`
      import blockether.vis.extension as vis

      class Tools:
          """Two tools."""

          def a(self) -> None:
              """One."""
              def inner():
                  vis.log("warning", "x")
              inner()

      def hook(call):
          import blockether.vis.extension as sdk
          sdk.notify("x", "debug")

      prompt = lambda env: vis.state.update(k={1})
    `;
    assert.deepEqual(
      findings(text).filter((f) => /^(LOG|STATE)/.test(f.rule)).map((f) => `${f.rule} ${f.range.start.line}`),
      ['LOG-001 8', 'LOG-002 13', 'STATE-001 15'],
    );
  });

  it('a name local to the body is not the SDK, and a value it cannot know is silent', () => {
    const text = tool('def log(level, msg):\n    pass\nvis = None\nlevel = compute()\nvis.log(level, "x")');
    assert.deepEqual(findings(text).filter((f) => /^(LOG|STATE|ASK|LIVE|FS)-/.test(f.rule)), []);
  });

  it('a call that does not bind gets only its TypeError', () => {
    const text = LANG + 'def fmt(path: str) -> FormatResult:\n    """Format one file."""\n    return FormatResult("python", "a.py", (), "", False, 0, 0, 9)\n';
    assert.deepEqual(findings(text).filter((f) => f.rule.startsWith('LANG-')).map((f) => `${f.rule}: ${f.message}`), ['LANG-001: FormatResult.__init__() takes from 4 to 8 positional arguments but 9 were given']);
  });

  it('a helper module that does not register, and an env= not written out, are not judged', () => {
    const helper = 'import os\n' + G3 + 'KEY = os.environ["ACME_KEY"]\n';
    const unknown = 'import os\n' + G3 + ENV_TOOL + ENV_REG(', env=names_from_config()');
    assert.deepEqual(findings(helper).filter((f) => f.rule.startsWith('ENV-')), []);
    assert.deepEqual(findings(unknown).filter((f) => f.rule.startsWith('ENV-')), []);
  });

  it('G1 and G2 files are checked the same way', () => {
    const g1 = 'import vis\n\ndef bump(n: int = 1) -> int:\n    """Bump."""\n    vis.log("warning", "x")\n    vis.state["s"] = {n}\n    return n\n\nvis.extension(name="c", description="d", alias="c", symbols=[vis.symbol(bump)])\n';
    const g2 = G3 + 'def bump(n: int = 1) -> int:\n    """Bump."""\n    vis.notify("x", "debug")\n    return n\n\nvis.register(vis.Extension(name="c", description="d", alias="c", symbols=[vis.Symbol(bump)]))\n';
    assert.deepEqual(findings(g1).filter((f) => /^(LOG|STATE)-/.test(f.rule)).map((f) => f.rule), ['LOG-001', 'STATE-001']);
    assert.deepEqual(findings(g2).filter((f) => /^LOG-/.test(f.rule)).map((f) => f.rule), ['LOG-002']);
  });

  it('offers the level, the snake_case key and the vis.fs name as fixes', () => {
    const text = tool('vis.log(\'warning\', "x")\nvis.log("deployed", "info")\nvis.ask("t", [{"name": "a", "isRequired": True}])\nvis.fs.readtext("a")');
    const fixes = findings(text).flatMap((f) => (f.fix ? [`${f.rule}: ${f.fix.title} -> ${JSON.stringify(f.fix.edits.map((e) => e.newText))}`] : []));
    assert.deepEqual(fixes, [
      `LOG-001: Change to 'warn' -> ["'warn'"]`,
      'LOG-001: Put the level first -> ["\\"info\\"","\\"deployed\\""]',
      'ASK-001: Change to is_required -> ["\\"is_required\\""]',
      'FS-001: Change to vis.fs.read_text -> ["vis.fs.read_text"]',
    ]);
  });
});

describe('realistic extensions that use every runtime family correctly', () => {
  const dir = path.join(__dirname, '..', 'fixtures', 'runtime');
  for (const file of ['deploy.py', 'notes.py', 'counter.py', 'lang_toy/extension.py']) {
    it(`${file}: no error or warning`, () => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const loud = findings(text, `file:///work/ext/${file}`).filter((f) => f.severity === 'error' || f.severity === 'warning');
      assert.deepEqual(loud.map((f) => `${f.rule} ${f.range.start.line + 1}: ${f.message}`), []);
    });
  }
});

describe('DESIGN-003 in a packaged extension', () => {
  it('reports a tool defined in a sibling module there, with the Symbol that exports it; the realistic package stays clean', () => {
    const p = project({
      ...NOTES.files,
      [NOTES.tools]: NOTES.files[NOTES.tools].replace('from .records import Note', 'from enum import Enum\n\nfrom .records import Note\n\n\nclass Kind(Enum):\n    TODO = "todo"').replace('def read(self, title: str) -> Note:', 'def read(self, title: str, kind: Kind) -> Note:'),
    });
    try {
      const program = new Program({ root: p.root, keepTrees: false });
      program.index();
      const entry = program.findings(p.uri(NOTES.entry)).filter((f) => f.rule === 'DESIGN-003');
      const line = p.line(NOTES.tools, 'def read(');
      const col = fs.readFileSync(p.file(NOTES.tools), 'utf8').split('\n')[line].indexOf('Kind)');
      assert.deepEqual(
        entry.map((f) => ({ uri: f.uri, message: f.message, range: f.range, related: f.related?.map((r) => ({ uri: r.uri, message: r.message })) })),
        [
          {
            uri: p.uri(NOTES.tools),
            message: "parameter 'kind' is Kind, an Enum: the model sees only its name, 'Kind (opaque)', not its values; use a Literal[...] of its values",
            range: { start: { line, character: col }, end: { line, character: col + 4 } },
            related: [{ uri: p.uri(NOTES.entry), message: 'exported by this vis.Symbol(...)' }],
          },
        ],
      );
    } finally {
      p.remove();
    }
    const clean = project(NOTES.files);
    try {
      const program = new Program({ root: clean.root, keepTrees: false });
      const found = program.index().flatMap((u) => program.findings(u)).filter((f) => ['DESIGN-003', 'DESIGN-004', 'ROUTE-003'].includes(f.rule));
      assert.deepEqual(found, []);
    } finally {
      clean.remove();
    }
  });
});

describe('DESIGN-003 reads the whole signature', () => {
  it('an annotation on a later line of the def, with the body on the last one', () => {
    const { text, ranges } = fixture(
      G3 + 'from enum import Enum\n\nclass Kind(Enum):\n    A = "a"\n\ndef run(a: str,\n        kind: [|Kind|]) -> str: """Run."""\n\nvis.register_extension(vis.Extension(name="t", description="d", alias="t", symbols=[vis.Symbol(run)]))\n',
    );
    assert.deepEqual(findingsOf('DESIGN-003', text), [
      { message: "parameter 'kind' is Kind, an Enum: the model sees only its name, 'Kind (opaque)', not its values; use a Literal[...] of its values", range: ranges[0] },
    ]);
  });
});
