// The failing and passing fixture of every rule of the declaration families (vis-sdk.md §2.7, §2.9–§2.13,
// G1 vis.provider): the bad text marks each finding's range as `[|...|]`, with the SDK's exact messages.
export const G3 = 'import blockether.vis.extension as vis\n\n';
/** G3: a vis.Setting makes it a version with settings. */
export const ST = G3;
/** The one SDK version with language_tools. */
export const LS = G3 + 'vis.register_extension(vis.Extension(name="lang", description="d", language_tools=[]))\n';
export const G2 = 'import blockether.vis.extension as vis\n\nvis.register(vis.Extension(name="g2", description="d"))\n';
export const G1 = 'import vis\n\n';
export const TOOL = 'def greet(name: str) -> str:\n    """Greet one person by name."""\n    return f"hi {name}"\n\n';

export interface Case {
  rule: string;
  bad: string;
  messages: string[];
  good: string;
}

export const cases: Case[] = [
  // §2.7 Catalog
  {
    rule: 'CAT-001',
    bad: G3 + TOOL + 'A = vis.Catalog([|"abc"|])\nB = vis.Catalog([vis.Symbol(greet), [|greet|]])\nC = vis.Catalog([|{vis.Symbol(greet)}|])\n',
    messages: ['Catalog requires a sequence of Symbol declarations', 'Catalog requires a sequence of Symbol declarations', 'Catalog requires a sequence of Symbol declarations'],
    good: G3 + TOOL + 'S = vis.Symbol(greet)\nA = vis.Catalog([S])\nB = vis.Catalog((vis.Symbol(greet, name="hi"),))\nC = vis.Catalog([vis.Symbol(f) for f in TOOLS])\n',
  },
  {
    rule: 'CAT-002',
    bad: G3 + TOOL + 'def hello(name: str) -> str:\n    """Say hello."""\n    return name\n\nC = vis.Catalog([vis.Symbol(greet), [|vis.Symbol(hello, name="greet")|]])\n',
    messages: ['Duplicate catalog name: greet'],
    good: G3 + TOOL + 'def hello(name: str) -> str:\n    """Say hello."""\n    return name\n\nC = vis.Catalog([vis.Symbol(greet), vis.Symbol(hello, name="greet", is_hidden=True), vis.Symbol(hello)])\n',
  },
  {
    rule: 'CAT-003',
    bad: G3 + TOOL + 'CATALOG = vis.Catalog([vis.Symbol(greet)])\n\ndef test_spec():\n    assert CATALOG.spec([|1|])\n',
    messages: ['Catalog name must be a string or None'],
    good: G3 + TOOL + 'CATALOG = vis.Catalog([vis.Symbol(greet)])\n\ndef test_spec():\n    assert CATALOG.spec()\n    assert CATALOG.spec(None)\n    assert CATALOG.spec("greet")\n',
  },
  {
    rule: 'CAT-004',
    bad:
      G3 +
      TOOL +
      'class Store:\n    def put(self, value: str) -> bool:\n        """Store a value."""\n        return True\n\n' +
      'CATALOG = vis.Catalog([vis.Symbol(greet), vis.Symbol(Store(), name="store"), vis.Symbol(greet, name="secret", is_hidden=True)])\n\n' +
      'def test_lookup():\n    CATALOG.spec([|"gret"|])\n    CATALOG.help([|"secret"|])\n',
    messages: ["Unknown catalog name: 'gret'", "Unknown catalog name: 'secret'"],
    good:
      G3 +
      TOOL +
      'class Store:\n    def put(self, value: str) -> bool:\n        """Store a value."""\n        return True\n\n' +
      'from .more import more\nCATALOG = vis.Catalog([vis.Symbol(greet), vis.Symbol(Store(), name="store")])\nOTHER = vis.Catalog([vis.Symbol(more)])\n\n' +
      'def test_lookup():\n    CATALOG.spec("greet")\n    CATALOG.spec("store")\n    CATALOG.help("store.put")\n    OTHER.spec("anything")\n',
  },
  {
    rule: 'CAT-005',
    bad: G3 + TOOL + 'CATALOG = vis.Catalog([vis.Symbol(greet)])\nCATALOG.help([|None|])\n',
    messages: ['Catalog name must be a string'],
    good: G3 + TOOL + 'CATALOG = vis.Catalog([vis.Symbol(greet)])\nCATALOG.help("greet")\n',
  },

  // §2.9 LanguageSurface (extension.py @1a8b6ead)
  {
    rule: 'LS-001',
    bad: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language=[|"TOML"|], extensions="toml", format=fmt)\nvis.LanguageSurface(language=[|""|], format=fmt)\n',
    messages: ["vis.LanguageSurface requires language=<lowercase name>, such as 'toml'", "vis.LanguageSurface requires language=<lowercase name>, such as 'toml'"],
    good: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language="toml", extensions=["toml"], format=fmt)\nvis.LanguageSurface(language="c++", format=fmt)\n',
  },
  {
    rule: 'LS-002',
    bad: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language="toml", extensions=[|"toml"|], format=fmt)\nvis.LanguageSurface(language="toml", extensions=["toml", [|" "|]], format=fmt)\n',
    messages: ["vis.LanguageSurface extensions must be file suffixes, such as ['toml']", "vis.LanguageSurface extensions must be file suffixes, such as ['toml']"],
    good: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language="toml", extensions=("toml", "tml"), format=fmt)\n',
  },
  {
    rule: 'LS-003',
    bad: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language="toml", is_exact_syntax=[|"yes"|], format=fmt)\n',
    messages: ['vis.LanguageSurface is_exact_syntax must be a boolean'],
    good: LS + 'def fmt(src):\n    return src\n\nvis.LanguageSurface(language="toml", is_exact_syntax=True, format=fmt)\n',
  },
  {
    rule: 'LS-004',
    bad: LS + 'vis.LanguageSurface(language="toml", lint=[|"ruff"|])\n',
    messages: ['vis.LanguageSurface lint must be a callable'],
    good: LS + 'def lint(src):\n    return None\n\nvis.LanguageSurface(language="toml", lint=lint, format=None)\n',
  },
  {
    rule: 'LS-005',
    bad: LS + '[|vis.LanguageSurface|](language="toml", extensions=["toml"], format=None)\n',
    messages: ['vis.LanguageSurface requires at least one handler, such as format=<callable>'],
    good: LS + 'from .handlers import HANDLERS\nvis.LanguageSurface(language="toml", repl_start=lambda op, options: None)\nvis.LanguageSurface(language="toml", **HANDLERS)\n',
  },

  // §2.10 Setting (the SDK versions with settings)
  {
    rule: 'SET-001',
    bad: ST + 'vis.Setting(id="hints", label="Hints", default=True, scopes=[|"global"|])\nvis.Setting(id="mode", label="Mode", default="a", type="enum", choices=[|"ab"|])\n',
    messages: ['Setting scopes must be a list or tuple', 'Setting choices must be a list or tuple'],
    good: ST + 'vis.Setting(id="hints", label="Hints", default=True, scopes=("global", "session"))\nvis.Setting(id="mode", label="Mode", default="a", type="enum", choices=["a", "b"])\n',
  },
  {
    rule: 'SET-002',
    bad:
      ST +
      'vis.Setting(id=[|"showHints"|], label="Hints", default=True)\n' +
      'vis.Setting(id="hints", label="Hints", default=True)\nvis.Setting(id=[|"hints"|], label="Hints again", default=False)\n' +
      'vis.Setting(id="kind", label="Kind", default="a", type=[|"string"|])\n' +
      'vis.Setting(id="where", label="Where", default=True, scopes=[|[]|])\n' +
      'vis.Setting(id="where2", label="Where", default=True, scopes=["global", [|"workspace"|]])\n' +
      'vis.Setting(id="where3", label="Where", default=True, scopes=["global", [|"global"|]])\n',
    messages: [
      "Setting id must be lower-case snake_case, such as 'show_hints', not 'showHints': Vis refuses the declaration and the extension does not load",
      "Setting id 'hints' is declared twice: ids are unique across Vis and every loaded extension, so Vis refuses the second and the extension does not load",
      'Setting type must be boolean or enum: Vis refuses the declaration and the extension does not load',
      'Setting scopes must name at least one scope (global, project, group, session): Vis refuses the declaration and the extension does not load',
      'Setting scopes are global, project, group, session: Vis refuses the declaration and the extension does not load',
      "Setting scope 'global' is listed twice: Vis refuses the declaration and the extension does not load",
    ],
    good: ST + 'vis.Setting(id="show_hints", label="Hints", default=True, scopes=["global", "project", "group", "session"])\nvis.Setting(id="style", label="Style", default="plain", type="enum", choices=["plain", "rich"])\n',
  },
  {
    rule: 'SET-003',
    bad: ST + 'vis.Setting(id="x", label="X", default=[|"yes"|])\nvis.Setting(id="y", label="Y", default=[|1|], type="boolean")\n',
    messages: ['A boolean setting requires a boolean default', 'A boolean setting requires a boolean default'],
    good: ST + 'vis.Setting(id="x", label="X", default=False)\nvis.Setting(id="y", label="Y", default="a", type="enum", choices=["a"])\n',
  },
  {
    rule: 'SET-004',
    bad: ST + 'vis.Setting(id="x", label="X", default=[|"c"|], type="enum", choices=["a", "b"])\nvis.Setting(id="y", label="Y", default="a", type="enum", choices=["a", [|2|]])\nvis.Setting(id="z", label="Z", default=[|"a"|], type="enum")\n',
    messages: ['A choice setting requires a default from its string choices', 'A choice setting requires a default from its string choices', 'A choice setting requires a default from its string choices'],
    good: ST + 'from .config import CHOICES\nvis.Setting(id="x", label="X", default="b", type="enum", choices=("a", "b"))\nvis.Setting(id="y", label="Y", default="a", type="enum", choices=CHOICES)\n',
  },

  // §2.11 Activity
  {
    rule: 'ACT-001',
    bad: G3 + 'vis.Activity("generic", show_start=[|1|])\n',
    messages: ['Activity show_start must be a boolean'],
    good: G3 + 'vis.Activity("generic", "Greet someone", None, False)\n',
  },
  {
    rule: 'ACT-002',
    bad: G3 + 'async def render(**_):\n    return None\n\nvis.Activity(render=[|3|])\nvis.Activity(render=[|render|])\n',
    messages: ['Activity render must be a synchronous callable', 'Activity render must be a synchronous callable'],
    good: G3 + 'def render(**_):\n    return None\n\nvis.Activity(render=render)\nvis.Activity(render=lambda **_: None)\nvis.Activity(render=None)\n',
  },
  {
    rule: 'ACT-003',
    bad: G3 + 'vis.Activity(presenter=[|"bogus"|])\nvis.Activity([|"Shell"|])\n',
    messages: ['unknown Activity presenter', 'unknown Activity presenter'],
    good: G3 + 'vis.Activity(presenter="shell")\nvis.Activity("list")\nvis.Activity()\n',
  },
  {
    rule: 'ACT-004',
    bad: G3 + `vis.Activity(label=[|"${'x'.repeat(100)}"|])\nvis.Activity(label=[|"  "|])\nvis.Activity(label=[|"Two\\nlines"|])\nvis.Activity(label=[|7|])\n`,
    messages: [
      'Activity label must be one nonblank line of at most 96 characters',
      'Activity label must be one nonblank line of at most 96 characters',
      'Activity label must be one nonblank line of at most 96 characters',
      'Activity label must be one nonblank line of at most 96 characters',
    ],
    good: G3 + `vis.Activity(label="${'x'.repeat(96)}")\nvis.Activity(label="Read file")\nvis.Activity(label=None)\n`,
  },
  {
    rule: 'ACT-005',
    bad: G3 + 'def [|render|](phase):\n    return None\n\ndef [|show|](*, phase, args, kwargs, result, error, theme):\n    return None\n\nvis.Activity(render=render)\nvis.Activity(render=show)\nvis.Activity(render=[|lambda phase: None|])\n',
    messages: [
      'vis.Activity calls render with the keyword arguments phase, args, kwargs, result and error; render(phase) does not take args, kwargs, result, error, so each call raises a TypeError that the SDK swallows and nothing is shown (take those keywords, or **_)',
      'vis.Activity calls render with the keyword arguments phase, args, kwargs, result and error; show(phase, args, kwargs, result, error, theme) also requires theme, which the SDK never passes, so each call raises a TypeError that the SDK swallows and nothing is shown (take those keywords, or **_)',
      'vis.Activity calls render with the keyword arguments phase, args, kwargs, result and error; this lambda does not take args, kwargs, result, error, so each call raises a TypeError that the SDK swallows and nothing is shown (take those keywords, or **_)',
    ],
    good:
      G3 +
      'def render(*, phase, args, kwargs, result, error):\n    return None\n\ndef short(phase, **_):\n    return None\n\ndef themed(phase, args, kwargs, result, error, theme="dark"):\n    return None\n\n' +
      'vis.Activity(render=render)\nvis.Activity(render=short)\nvis.Activity(render=themed)\nvis.Activity(render=lambda **_: None)\n',
  },
  {
    rule: 'ACT-006',
    bad: G3 + 'vis.Activity(label=[|"read_file"|])\nvis.Activity(label=[|"READ FILE"|])\n',
    messages: ["Activity labels are in sentence case, such as 'Read file', not 'read_file'", "Activity labels are in sentence case, such as 'Read file', not 'READ FILE'"],
    good: G3 + 'vis.Activity(label="Read file")\nvis.Activity(label="git status")\nvis.Activity(label="CI")\nvis.Activity(label="Run SQL query")\n',
  },
  {
    rule: 'ACT-007',
    bad: G3 + 'def tool(path: str) -> str:\n    """Read a file."""\n    vis.publish_activity([|{"headline": "Reading"}|])\n    vis.publish_activity([|vis.ActivityText("Reading")|])\n    return path\n',
    messages: [
      'publish_activity shows nothing here: it takes a vis.ActivityPresentation and returns False for anything else',
      'publish_activity shows nothing here: it takes a vis.ActivityPresentation and returns False for anything else',
    ],
    good: G3 + 'from .ui import progress\n\ndef tool(path: str) -> str:\n    """Read a file."""\n    vis.publish_activity(vis.ActivityPresentation("Reading", path))\n    vis.publish_activity(progress(path))\n    return path\n',
  },
  {
    rule: 'PRES-001',
    bad: G3 + `vis.ActivityPresentation([|3|], "s")\nvis.ActivitySection("h", [|"${'s'.repeat(513)}"|])\n`,
    messages: ['Activity headline must be text of at most 512 characters', 'Activity summary must be text of at most 512 characters'],
    good: G3 + `vis.ActivityPresentation("Read 3 files", "${'s'.repeat(512)}")\n`,
  },
  {
    rule: 'PRES-002',
    bad: G3 + `vis.ActivityPresentation([|"Two\\nlines"|], "s")\nvis.ActivityPresentation("h", [|"${'é'.repeat(257)}"|])\nvis.ActivitySection("h", [|"tab\\there"|])\n`,
    messages: ['Activity headline must be one line of at most 512 UTF-8 bytes', 'Activity summary must be one line of at most 512 UTF-8 bytes', 'Activity summary must be one line of at most 512 UTF-8 bytes'],
    good: G3 + `vis.ActivityPresentation("Read file", "${'é'.repeat(256)}")\n`,
  },
  {
    rule: 'PRES-003',
    bad: G3 + 'vis.ActivityPresentation([|""|], "s")\nvis.ActivitySection(headline=[|""|], summary="")\n',
    messages: ['Activity headline must not be empty', 'Activity headline must not be empty'],
    good: G3 + 'vis.ActivityPresentation("Read file", "")\n',
  },
  {
    rule: 'PRES-004',
    bad: G3 + 'vis.ActivityPresentation("h", "s", [|vis.ActivityText("x")|])\nvis.ActivityPresentation("h", "s", [vis.ActivityText("x"), [|"more"|]])\n',
    messages: ['Activity content must contain typed blocks', 'Activity content must contain typed blocks'],
    good: G3 + 'vis.ActivityPresentation("h", "s", (vis.ActivityText("x"), vis.ActivityCode("print(1)", language="python")))\nvis.ActivityPresentation("h", "s", [vis.ActivityText(line) for line in LINES])\n',
  },
  {
    rule: 'PRES-005',
    bad: G3 + 'vis.ActivityPresentation("h", "s", sections=[[|vis.ActivityPresentation("n", "s")|]])\nvis.ActivityPresentation("h", "s", (), [|vis.ActivitySection("a", "b")|])\n',
    messages: ['Activity sections must contain non-nested ActivitySections', 'Activity sections must contain non-nested ActivitySections'],
    good: G3 + 'vis.ActivityPresentation("h", "s", sections=[vis.ActivitySection("Step 1", "done", (vis.ActivityText("ok"),))])\n',
  },
  {
    rule: 'PRES-007',
    bad: G3 + 'vis.ActivityPresentation("h", "s", summary_format=[|"html"|])\nvis.ActivitySection("h", "s", summary_format=[|"rich"|])\n',
    messages: ['Invalid Activity summary_format', 'Invalid Activity summary_format'],
    good: G3 + 'vis.ActivityPresentation("h", "**s**", summary_format="markdown")\nvis.ActivitySection("h", "s", summary_format=None)\n',
  },
  {
    rule: 'PRES-008',
    bad: G3 + 'vis.ActivityPresentation("h", "s", handle_id=[|12|])\n',
    messages: ['Activity handle_id must be a string'],
    good: G3 + 'vis.ActivityPresentation("h", "s", handle_id="run-12")\n',
  },
  {
    rule: 'PRES-009',
    bad: G3 + `vis.ActivityPresentation("h", "s", handle_id=[|" "|])\nvis.ActivityPresentation("h", "s", handle_id=[|"${'h'.repeat(257)}"|])\n`,
    messages: ['Activity handle_id must be one nonblank line of at most 512 UTF-8 bytes', 'Activity handle_id must be one nonblank line of at most 512 UTF-8 bytes'],
    good: G3 + `vis.ActivityPresentation("h", "s", handle_id="${'h'.repeat(256)}")\n`,
  },
  {
    rule: 'PRES-010',
    bad: G3 + 'vis.ActivityPresentation("Tests", "3 failed", verdict=[|"fail"|])\n',
    messages: ['Activity verdict must be passed or failed'],
    good: G3 + 'vis.ActivityPresentation("Tests", "3 failed", verdict="failed")\n',
  },
  {
    rule: 'BLK-001',
    bad: G3 + 'vis.ActivityText([|None|])\nvis.ActivityMarkdown(text=[|b"bytes"|])\n',
    messages: ['Activity text must be text', 'Activity text must be text'],
    good: G3 + `vis.ActivityText("${'t'.repeat(20000)}")\nvis.ActivityHeading("Results")\n`,
  },
  {
    rule: 'BLK-002',
    bad: G3 + `vis.ActivityCode("x = 1", language=[|"${'p'.repeat(257)}"|])\nvis.ActivityDiff("-a\\n+b", [|3|])\n`,
    messages: ['Activity language must be text of at most 256 characters', 'Activity language must be text of at most 256 characters'],
    good: G3 + 'vis.ActivityCode("x = 1", language="python")\nvis.ActivityDiff("-a\\n+b")\n',
  },
  {
    rule: 'BLK-004',
    bad:
      G3 +
      'vis.ActivityTable([|[]|], [])\n' +
      'vis.ActivityTable(["a", "b"], [|"rows"|])\n' +
      'vis.ActivityTable(["a", [|2|]], [])\n' +
      'vis.ActivityTable(["a", "b"], [["1", "2"], [|["3"]|]])\n' +
      'vis.ActivityTable(["a"], [[[|1|]]])\n' +
      'vis.ActivityTable(["path"], [["a.py"]], paths=[|"a.py"|])\n' +
      'vis.ActivityTable(["path"], [["a.py"]], paths=[[|None|]])\n' +
      'vis.ActivityTable(["path"], [["a.py"], ["b.py"]], paths=[|["a.py"]|])\n',
    messages: [
      'Activity table requires at least one column',
      'Activity table rows must be a list or tuple',
      'Activity columns must be text',
      'Activity table row width must match its columns',
      'Activity cells must be text',
      'Activity table paths must be a list or tuple',
      'Activity paths must be text',
      'Activity table paths must match its rows',
    ],
    good: G3 + 'vis.ActivityTable(("file", "lines"), (("a.py", "10"), ("b.py", "3")), paths=("a.py", "b.py"))\nvis.ActivityTable(["file"], [[name] for name in NAMES])\n',
  },
  {
    rule: 'BLK-005',
    bad: G3 + `vis.ActivityFile([|None|], "log")\nvis.ActivityImage([|"  "|], "plot")\nvis.ActivityAudio("att-1", [|"${'l'.repeat(257)}"|])\n`,
    messages: ['Activity attachment id must be text of at most 256 characters', 'Activity attachment id must not be blank', 'Activity label must be text of at most 256 characters'],
    good: G3 + 'vis.ActivityFile("att-1", "build.log")\nvis.ActivityVideo(attachment_id="att-2", label="Screen recording")\n',
  },
  {
    rule: 'BLK-006',
    bad: G3 + 'vis.ActivityProgress("p", value=[|5|], total=1)\nvis.ActivityProgress("p", value=[|1|])\nvis.ActivityProgress("p", total=[|0|])\nvis.ActivityProgress([|None|])\nvis.ActivityProgress("p", [|True|], 3)\n',
    messages: [
      'Activity progress requires finite 0 <= value <= total and total > 0',
      'Activity progress requires finite 0 <= value <= total and total > 0',
      'Activity progress requires finite 0 <= value <= total and total > 0',
      'Activity label must be text of at most 256 characters',
      'Activity progress requires finite 0 <= value <= total and total > 0',
    ],
    good: G3 + 'vis.ActivityProgress("Indexing", value=3, total=10)\nvis.ActivityProgress("Waiting")\nvis.ActivityProgress("Done", 1.0, 1.0)\nvis.ActivityProgress("p", value=done, total=count)\n',
  },

  // §2.12 Provider family
  {
    rule: 'PRV-001',
    bad: G3 + 'vis.Provider([|""|], "L")\nvis.Provider("acme", [|"  "|])\nvis.Provider("acme", "Acme", is_managed=[|"yes"|])\nvis.Provider("acme", "Acme", preset=[|{"base_url": "https://api.acme.test"}|])\n',
    messages: ['provider id must be nonblank text', 'provider label must be nonblank text', 'is_managed must be a boolean', 'vis.Provider preset must be a ProviderPreset'],
    good: G3 + 'vis.Provider("acme", "Acme", preset=vis.ProviderPreset(base_url="https://api.acme.test", api_style="openai"), is_managed=True)\n',
  },
  {
    rule: 'PRV-002',
    bad:
      G3 +
      'async def token():\n    return None\n\ndef login():\n    return True\n\n' +
      'vis.Provider("a", "A", get_token_fn=[|1|])\nvis.Provider("a", "A", get_token_fn=[|token|])\nvis.Provider("a", "A", auth_fn=[|login|])\nvis.Provider("a", "A", enrich_models_fn=[|lambda provider: []|])\nvis.Provider("a", "A", detect_fn=[|lambda value: None|])\n',
    messages: [
      'vis.Provider get_token_fn must be a synchronous callable',
      'vis.Provider get_token_fn must be a synchronous callable',
      'vis.Provider auth_fn has an incompatible signature',
      'vis.Provider enrich_models_fn has an incompatible signature',
      'vis.Provider detect_fn has an incompatible signature',
    ],
    good:
      G3 +
      'def token():\n    return vis.ProviderCredential(token="t")\n\ndef login(printer):\n    printer("Open the browser")\n    return True\n\ndef refresh(rejected=None):\n    return None\n\n' +
      'vis.Provider("a", "A", get_token_fn=token, auth_fn=login, refresh_token_fn=refresh, enrich_models_fn=lambda provider, opts: [], on_selected_fn=lambda selection: None, status_fn=lambda: vis.ProviderStatus(is_authenticated=True))\n' +
      'vis.Provider("b", "B", refresh_token_fn=lambda: None, detect_fn=lambda *args: None)\n',
  },
  {
    rule: 'PRV-004',
    bad:
      G3 +
      'vis.ProviderPreset(api_style=[|"soap"|])\n' +
      'vis.ProviderPreset(base_url=[|8080|])\n' +
      'vis.ProviderPreset(default_models=["gpt", [|""|]])\n' +
      'vis.ProviderPreset(default_models=[[|3|]])\n' +
      'vis.ProviderPreset(llm_headers={"X-Key": [|1|]})\n' +
      'vis.ProviderPreset(llm_headers=[|[("X-Key", "v")]|])\n' +
      'vis.ProviderPreset(extra_body={"temperature": [|{1, 2}|]})\n' +
      'vis.ProviderPreset(extra_body={[|1|]: "x"})\n' +
      'vis.ProviderPreset(is_hidden=[|"no"|])\n' +
      'vis.ProviderPreset(extra={[|"base-url"|]: "x"})\n',
    messages: [
      'provider api_style names no wire dialect',
      'base_url must be text',
      'default_models must be nonblank text',
      'default_models must contain str values',
      'llm_headers values must be strings',
      'llm_headers must be a mapping',
      'provider data must contain portable JSON values',
      'provider JSON keys must be strings',
      'is_hidden must be a boolean',
      'provider extra fields must not shadow declared fields',
    ],
    good: G3 + 'vis.ProviderPreset(base_url="https://api.acme.test/v1", api_style="openai-compatible", default_models=("acme-1",), llm_headers={"X-Team": "core"}, extra_body={"temperature": 0.2, "stop": ["\\n"]}, is_hidden=False, extra={"region": "eu"})\n',
  },
  {
    rule: 'PRV-005',
    bad: G3 + 'vis.ProviderCredential([|" "|])\nvis.ProviderCredential("t", api_style=[|"grpc"|])\nvis.ProviderCredential("t", source=[|1|])\n',
    messages: ['token must be nonblank text', 'provider api_style names no wire dialect', 'source must be text'],
    good: G3 + 'vis.ProviderCredential("t", api_url="https://api.acme.test", api_style="anthropic", llm_headers={"anthropic-beta": "x"}, source="keychain")\n',
  },
  {
    rule: 'PRV-006',
    bad: G3 + 'vis.ProviderStatus([|"yes"|])\nvis.ProviderStatus(True, error=[|500|])\nvis.ProviderStatus(False, extra=[|["x"]|])\n',
    messages: ['is_authenticated must be a boolean', 'error must be text', 'extra must be a mapping'],
    good: G3 + 'vis.ProviderStatus(is_authenticated=False, error="token expired", source="env", label="Acme", extra={"plan": "pro"})\n',
  },
  {
    rule: 'PRV-007',
    bad: G3 + 'vis.ProviderModel([|""|])\nvis.ProviderModel("m", context=[|0|])\nvis.ProviderModel("m", is_tool_call=[|"yes"|])\n',
    messages: ['model name must be nonblank text', 'invalid context', 'is_tool_call must be a boolean'],
    good: G3 + 'vis.ProviderModel("acme-1", context=200000, is_tool_call=True, is_image_input=False)\n',
  },
  {
    rule: 'PRV-008',
    bad: G3 + 'vis.ProviderLimitWindow([|""|])\nvis.ProviderLimitWindow([|"daily"|])\nvis.ProviderLimitWindow("rolling", unit=[|"second"|])\nvis.ProviderLimitWindow("rolling", "hour", size=[|0|])\nvis.ProviderLimitWindow("rolling", resets_at_ms=[|1.5|])\n',
    messages: ['window kind must be nonblank text', 'invalid window kind', 'invalid window unit', 'invalid window size', 'invalid resets_at_ms'],
    good: G3 + 'vis.ProviderLimitWindow("rolling", unit="hour", size=5, resets_at_ms=1700000000000)\n',
  },
  {
    rule: 'PRV-009',
    bad:
      G3 +
      'vis.ProviderLimit([|""|], "Tokens", "account", "tokens", "exact", "provider-api")\n' +
      'vis.ProviderLimit("t", "Tokens", [|"org"|], "tokens", "exact", "provider-api")\n' +
      'vis.ProviderLimit("t", "Tokens", "account", "tokens", "exact", [|"api"|])\n' +
      'vis.ProviderLimit("t", "Tokens", "account", "tokens", "exact", "local", used=[|"10"|])\n' +
      'vis.ProviderLimit("t", "Tokens", "account", "tokens", "exact", "local", window=[|{"kind": "rolling"}|])\n',
    messages: ['id must be nonblank text', 'invalid scope', 'invalid source', 'invalid used', 'window must be a ProviderLimitWindow'],
    good: G3 + 'vis.ProviderLimit("tokens", "Tokens", "account", "tokens", "exact", "provider-api", used=10, limit=100, remaining=90.5, window=vis.ProviderLimitWindow("rolling", "day", 1))\n',
  },
  {
    rule: 'PRV-010',
    bad: G3 + 'vis.ProviderError([|""|], "m")\nvis.ProviderError("http", [|None|])\nvis.ProviderError("http", "m", data=[|"x"|])\n',
    messages: ['error type must be nonblank text', 'error message must be nonblank text', 'error data must be a mapping'],
    good: G3 + 'vis.ProviderError("http", "429 Too Many Requests", data={"status": 429})\n',
  },
  {
    rule: 'PRV-011',
    bad:
      G3 +
      'vis.ProviderLimits(status=[|"fine"|])\nvis.ProviderLimits(limits=[[|{"id": "t"}|]])\nvis.ProviderLimits(rpm=[|-1|])\nvis.ProviderLimits(error=[|"boom"|])\nvis.ProviderLimits(provider_id=[|""|])\n',
    messages: ['invalid limits status', 'limits must contain ProviderLimit values', 'invalid rpm', 'error must be a ProviderError', 'provider_id must be nonblank text'],
    good: G3 + 'vis.ProviderLimits(status="error", error=vis.ProviderError("http", "timeout"), rpm=0, tpm=1000, provider_id="acme", fetched_at_ms=1700000000000)\nvis.ProviderLimits(provider_id=None)\n',
  },
  {
    rule: 'G1-PRV-1',
    bad: G1 + 'vis.provider([|""|], "Acme")\nvis.provider("acme", [|None|])\nvis.provider("acme", "Acme", get_token_fn=[|"KEY"|])\n',
    messages: ['vis.provider(...) requires id=<non-empty string>', 'vis.provider(...) requires label=<non-empty string>', 'vis.provider get_token_fn= must be callable or None'],
    good: G1 + 'def token():\n    return {"token": "t", "api_url": "https://api.acme.test"}\n\nvis.provider("acme", "Acme", preset={"base_url": "https://api.acme.test"}, get_token_fn=token)\n',
  },

  // §2.13 the other typed-SDK calls
  {
    rule: 'MISC-002',
    bad: G3 + 'def fix(call):\n    return vis.repair([|None|], notes=["x"])\n\ndef fix2(call):\n    return vis.repair("src", notes=[|[]|])\n',
    messages: ['Repair source must be a string', 'Repair notes must be a non-empty sequence of strings'],
    good: G3 + 'def fix(call):\n    return vis.repair(call["args"][0]["text"], notes=["Closed the bracket on line 3."])\n',
  },
  {
    rule: 'MISC-003',
    bad: G3 + 'def run() -> str:\n    """Run ls."""\n    return vis.shell([|"ls"|]).wait()\n\ndef jailed() -> str:\n    """Run ls."""\n    return vis.jailed_shell([|["ls"]|])\n',
    messages: ["shell takes one options map — use shell({'command': 'ls'})", "jailed_shell takes one options map — use jailed_shell({'command': 'ls'})"],
    good: G3 + 'def run() -> str:\n    """Run ls."""\n    return vis.shell({"command": "ls"}).wait()\n',
  },
  {
    rule: 'MISC-004',
    bad: '# /// script\n# dependencies = ["vis-agent>=0.2.45"]\n# ///\n' + G3 + 'def go():\n    return [|vis.tools|]("spel.reserve")\n',
    messages: ['vis.tools is not a tool; call one, such as vis.tools.spel.reserve(...)'],
    good: '# /// script\n# dependencies = ["vis-agent>=0.2.45"]\n# ///\n' + G3 + 'def go():\n    return vis.tools.spel.reserve(day="mon")\n',
  },
  {
    rule: 'MISC-005',
    bad: G3 + 'def on_done():\n    vis.council.wake("Build finished", kind=[|"info"|])\n',
    messages: ["council.wake kind must be one of complain, coordination, informational, got 'info': its type names no other kind"],
    good: G3 + 'def on_done():\n    vis.council.wake("Build finished", kind="informational", title="CI")\n',
  },
  {
    rule: 'MISC-006',
    bad: G3 + 'def view():\n    return vis.heading("title", [|level|]=2)\n',
    messages: ['live heading options require both id and text'],
    good: G3 + 'def view():\n    return [vis.heading("Section"), vis.heading("title", "Results", level=2), vis.paragraph("Plain prose.")]\n',
  },
  {
    rule: 'MISC-009',
    bad:
      G3 +
      'def nonblank(value, values, extra):\n    return None\n\n' +
      'def ask():\n' +
      '    vis.ask("Title", [|[]|])\n' +
      '    vis.ask("Title", [[|"name"|]])\n' +
      '    vis.ask("Title", [{"name": "n", "validate": [|"required"|]}])\n' +
      '    vis.ask("Title", [{"name": "n", "validate": [|nonblank|]}])\n' +
      '    vis.ask("Title", [|{"type": "plaintext", "validate": len}|])\n',
    messages: [
      'a form needs a non-empty list of field specs',
      'each field spec is a dict of snake_case string keys',
      'validate is a function, or a list of functions, taking the value (and optionally every value) and answering None or a message string',
      'a validate function takes the value, or the value and every value - this one takes neither',
      'a form needs a non-empty list of field specs',
    ],
    good:
      G3 +
      'def nonblank(value, values=None):\n    return None if value else "Required"\n\n' +
      'def ask():\n    return vis.ask("Sign in", [{"name": "user", "validate": [nonblank, lambda v: None]}, vis.password("token"), {"id": "otp", "type": "otp", "validate": nonblank}])\n',
  },
  {
    rule: 'SDK-003',
    bad: G3 + 'vis.Activity("generic", "Label", None, True, [|"extra"|])\nvis.Symbol(print, [|hidden|]=True)\n[|vis.ActivityPresentation|]("only a headline")\nvis.OpHook(["patch"], print, phase="before", [|phase|]="after")\n',
    messages: [
      'Activity.__init__() takes from 1 to 5 positional arguments but 6 were given',
      "Symbol.__init__() got an unexpected keyword argument 'hidden'",
      "ActivityPresentation.__init__() missing 1 required positional argument: 'summary'",
      "OpHook.__init__() got multiple values for argument 'phase'",
    ],
    good: G3 + 'vis.Activity("generic", "Label", None, True)\nvis.Symbol(print, is_hidden=True)\nvis.ActivityPresentation("h", summary="s")\n',
  },
];
