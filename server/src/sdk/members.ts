// The public members of the SDK modules, as data: the G1 `vis` module (Vis 0.1.41 and the docs before
// it), the typed `blockether.vis.extension` module across its versions, and the vis-lang-interface
// modules extensions import. Signatures are written as Python parameter lists (`fn, name=None, *, tag:
// SymbolTag = "observation"`); `table.ts` compiles them. Every description is a sentence of ours from the
// API documents. Where a member or parameter exists only in some releases, `releases` says which.
import type { ReleaseSet } from './releases';

/**
 * `class`, `function`, `constant` and `module` as Python has them; `object` for an instance the module
 * exposes with attributes of its own (`vis.state`, `vis.fs`, `vis.council`); `alias` for a type alias
 * (`SymbolTag`, `ProviderAPIStyle`).
 */
export type MemberKind = 'class' | 'function' | 'constant' | 'object' | 'module' | 'alias';

export interface ParamSpec {
  doc?: string;
  /** The closed vocabulary of the parameter's values (a `vocabularies.ts` id). */
  vocab?: string;
  /** The SDK class every item of this collection must be (`symbols` holds `Symbol`). */
  holds?: string;
  /** Releases that have the parameter (default: every release of its member). */
  releases?: ReleaseSet;
  /** vis-lang-interface version that added it. */
  since?: string;
  /**
   * For a callback: the arguments Vis (or vis-lang-interface) calls it with, as a Python parameter list of
   * what it passes (`env`; `sources, root`; `source, *, original, spans, parses_clean` for keywords).
   */
  calls?: string;
  /** A callback the SDK calls: with how many positional arguments (any of these), or with these keywords. */
  calledWith?: CalledWith;
}

export interface CalledWith {
  positional?: readonly number[];
  keywords?: readonly string[];
}

export interface MemberSpec {
  name: string;
  kind: MemberKind;
  doc: string;
  /** Parameter list of a function or constructor (without `self`). */
  sig?: string;
  returns?: string;
  /** Type text of a constant, an object or an alias. */
  type?: string;
  params?: Record<string, ParamSpec>;
  releases?: ReleaseSet;
  /** Another signature in some releases (a renamed parameter). */
  variants?: { releases: ReleaseSet; sig: string }[];
  /** Attributes of an object or class (`state.get`, `council.wake`). */
  members?: MemberSpec[];
  /** Bound by the module (an import, a typing helper) but not API: never offered, never an AttributeError. */
  internal?: boolean;
  /** A typed-SDK declaration or registration that the G1 `vis` module certainly does not have. */
  typedOnly?: boolean;
  /** vis-lang-interface version that added it. */
  since?: string;
  /** A G1 dict builder the typed SDK retired (`vis.symbol`, `vis.slash`...). */
  retiredBuilder?: boolean;
  /** An object whose attributes are all listed in `members`: any other is an AttributeError. */
  closed?: boolean;
  /** The class name Python names the object by in an AttributeError (`_Fs`). */
  pythonType?: string;
  /** A builder of form or live-view nodes: the node `type` it makes, and where it is used. */
  node?: { type: string; in: 'form' | 'live' | 'both' };
}

export interface ModuleSpec {
  /** Dotted module name, e.g. `blockether.vis.extension`. */
  name: string;
  doc: string;
  /** The SDK family whose releases the members follow; unset for vis-lang-interface. */
  family?: 'g1' | 'typed';
  members: MemberSpec[];
}

const fn = (name: string, sig: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec => ({ name, kind: 'function', sig, doc, ...extra });
const cls = (name: string, sig: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec => ({ name, kind: 'class', sig, doc, ...extra });
const obj = (name: string, type: string, doc: string, members: MemberSpec[] = [], extra: Partial<MemberSpec> = {}): MemberSpec => ({ name, kind: 'object', type, doc, members, ...extra });
const alias = (name: string, type: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec => ({ name, kind: 'alias', type, doc, ...extra });
const constant = (name: string, type: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec => ({ name, kind: 'constant', type, doc, ...extra });
const internal = (...names: string[]): MemberSpec[] => names.map((name) => ({ name, kind: 'constant', doc: 'Imported by the SDK module for its own use.', internal: true }));

// ---------------------------------------------------------------------------------------------
// Shared by both families: durable state, logging, shells, human input, live views.

const STATE_MEMBERS: MemberSpec[] = [
  fn('get', 'key, default=None', 'Reads one key, or `default` when it is absent (a stored None counts as absent).'),
  fn('pop', 'key, default=...', 'Removes one key and returns its value.'),
  fn('setdefault', 'key, default=None', 'Returns the value of a key, storing `default` first when it is absent.'),
  fn('update', 'other=(), /, **values', 'Writes several keys at once.'),
  fn('keys', '', 'The stored keys (only about the 100 most recently updated are listed).'),
  fn('items', '', 'The stored keys and values.'),
  fn('values', '', 'The stored values.'),
  fn('clear', '', 'Removes every key.'),
];

const state = (): MemberSpec =>
  obj(
    'state',
    'MutableMapping[str, Any]',
    "The extension's durable key-value state in the Vis database, keyed by the extension name; values must be plain data, and writing None deletes the key.",
    STATE_MEMBERS,
  );

const log = (): MemberSpec => fn('log', 'level, msg', 'Writes one line to the engine log at a level (trace, debug, info, warn, error).', { params: { level: { vocab: 'log-level', doc: 'trace, debug, info, warn or error.' }, msg: { doc: 'The line to log.' } } });
const notify = (): MemberSpec =>
  fn('notify', 'text, level="info"', "Shows a notification on the user's channel (info, success, warn, error).", { params: { text: { doc: 'What to show.' }, level: { vocab: 'notify-level', doc: 'info, success, warn or error.' } } });
const shellCall = (name: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec =>
  fn(name, 'opts', doc, { returns: 'Shell', params: { opts: { doc: "One options map, such as {'command': 'ls'}." } }, ...extra });
const SHELL_CLASS = cls('Shell', 'raw, call', 'The live handle a shell call returns: a dict of the result with logs(), wait(), type() and stop().', {
  members: [
    fn('logs', 'offset=None, limit=None', 'Reads output; a negative offset reads the last lines.'),
    fn('wait', 'seconds=120', 'Waits for the process to finish or the time to pass.'),
    fn('type', 'text, is_enter=True', 'Sends text to the process, pressing Enter by default.'),
    fn('stop', '', 'Stops the process.'),
  ],
});

const ANSWER_CLASS = cls('Answer', 'raw', 'What vis.ask(...) returns: false when the dialog was cancelled or timed out, else the answers by field name.', {
  members: [fn('get', 'name, default=None', 'The value of one field.'), fn('reveal', 'name', 'The plaintext behind a password field, on the trusted side only.')],
});

const ASK = fn('ask', 'title, fields, **options', 'Asks the human for typed values in a dialog and blocks until they answer, cancel or the timeout passes.', {
  returns: 'Answer',
  params: {
    title: { doc: 'The dialog title.' },
    fields: { doc: 'Field specs (dicts with snake_case keys) or the form builders.' },
    options: { vocab: 'dialog-option', doc: 'description, submit_label, cancel_label, is_cancellable, timeout_ms (0 waits indefinitely; 5 minutes by default).' },
  },
});

const formBuilder = (name: string, doc: string, sig = 'name, **spec', node: MemberSpec['node'] = { type: name, in: 'form' }): MemberSpec => fn(name, sig, doc, { returns: 'dict', node });

const FORM_BUILDERS: MemberSpec[] = [
  formBuilder('plaintext', 'A single-line text input; the answer is a string.'),
  formBuilder('password', 'A hidden text input; the answer is a vis-secret handle, read with vis.reveal(...).'),
  formBuilder('multiline', 'A multi-line text input; the answer keeps its line breaks.'),
  formBuilder('select', 'A single choice among the given options.', 'name, options, **spec'),
  formBuilder('multiselect', 'Several choices among the given options; the answer is a list.', 'name, options, **spec'),
  formBuilder('checkbox', 'A yes/no input; the answer is a bool.'),
  formBuilder('slider', 'A numeric slider with min, max and step (0, 100 and 1 unless given); the field type is `range`.', 'name, **spec', { type: 'range', in: 'form' }),
  formBuilder('otp', 'A digits-only code input of 6 boxes by default (12 at most); the answer is a vis-secret handle.'),
  formBuilder('option', 'A value for select or multiselect, with an optional label to display instead of it.', 'value, label=None', undefined),
  formBuilder('row', 'A horizontal group of nodes; in a live view its first argument may be the group id.', '*fields', { type: 'group', in: 'both' }),
  formBuilder('column', 'A vertical group of nodes; in a live view its first argument may be the group id.', '*fields', { type: 'group', in: 'both' }),
];

const SECRETS: MemberSpec[] = [
  fn('reveal', 'handle', 'Turns a vis-secret handle back into its text (None once forgotten); keep the result out of logs.'),
  fn('forget', 'handle', 'Makes Vis forget the text a vis-secret handle stands for.'),
];

const liveNodeClasses = (typed: boolean): MemberSpec[] => [
  cls('Interrupted', 'view_id, reason=None, note=None', 'What a push into a live view raises after the person watching it has stopped it.'),
  cls('Status', 'view, node_id, type_name', 'The handle of a live status line.', { members: [fn('set', 'text, tone=None, detail=None, label=None', 'Says what is happening now.')] }),
  cls('Progress', 'view, node_id, type_name', 'The handle of a live progress bar.', { members: [fn('set', 'value=None, done=None, total=None, label=None', 'Sets a fraction, or the counts to make one.')] }),
  cls('Stat', 'view, node_id, type_name', 'The handle of a live strip of counters.'),
  cls('Steps', 'view, node_id, type_name', 'The handle of a live checklist.'),
  cls('Log', 'view, node_id, type_name', 'The handle of a live log.', {
    members: typed
      ? [fn('write', '*lines: str | Sequence[str], tone: LogTone | None = None', 'Appends complete lines, optionally styled; redact before writing.', { params: { tone: { vocab: 'log-tone' } } }), fn('clear', '', 'Starts the log over.')]
      : [fn('write', '*lines', 'Appends lines.'), fn('clear', '', 'Starts the log over.')],
  }),
  cls('Table', 'view, node_id, type_name', 'The handle of a live table.', { members: [fn('upsert', typed ? 'row_id, cells, tone=None, parent=None' : 'row_id, cells, tone=None', 'Adds a row or changes it, by id.')] }),
  cls('Link', 'view, node_id, type_name', 'The handle of a live list of links.'),
];

const liveView = (typed: boolean): MemberSpec =>
  cls('LiveView', 'request, flush_ms=None', 'The handle of an open live view: nodes by id, batched pushes, and close() for the verdict the model reads.', {
    members: [
      fn('node', 'node_id', 'The typed handle of one node.'),
      fn('state', '', 'What the view looks like now.'),
      fn('flush', '', 'Sends everything buffered.'),
      fn('close', typed ? 'reason=None, summary=None, error=None, artifact_id=None, selection_snapshots=None, model_result=None' : 'reason=None, summary=None, error=None, artifact_id=None, focus_snapshots=None, model_result=None', 'Ends the view and returns the result the model reads.'),
      fn('add', 'node, after=None', 'Adds a node to the running view.'),
      fn('drop', 'node_id', 'Drops a node and its items.'),
      ...(typed
        ? [
            fn('sleep', 'seconds', 'Blocks until the view changes, ends or the time passes (at most 86400 seconds).', { releases: { gen: ['G3'] } }),
            fn('write', '*lines, tone: LogTone | None = None', 'Appends lines to the one log node, optionally styled.', { params: { tone: { vocab: 'log-tone' } } }),
            fn('batch', '', 'Sends one complete picture for a group of changes.'),
          ]
        : [fn('write', '*lines', 'Appends lines to the one log node.')]),
    ],
  });

const LIVE = fn('live', 'title, nodes, **options', 'Opens a live view the human watches while the extension works, and returns its handle; use it as a context manager.', {
  returns: 'LiveView',
  params: { options: { vocab: 'live-option', doc: 'description, source, session_id, channel_ids and flush_ms.' } },
});

const liveBuilder = (name: string, sig: string, doc: string, extra: Partial<MemberSpec> = {}): MemberSpec => fn(name, sig, doc, { returns: 'dict', node: { type: name, in: 'live' }, ...extra });

const LIVE_BUILDERS: MemberSpec[] = [
  liveBuilder('status', 'node_id, text=None, **spec', 'A one-line live status node.'),
  liveBuilder('progress', 'node_id, **spec', 'A live progress node, set as a fraction or as done out of total.'),
  liveBuilder('stat', 'node_id, stats=None, **spec', 'A live row of named counters.'),
  liveBuilder('steps', 'node_id, steps=None, **spec', 'A live list of steps with their state.'),
  liveBuilder('output', 'node_id, **spec', 'A live node of output lines (node type `log`).', { node: { type: 'log', in: 'live' } }),
  liveBuilder('table', 'node_id, columns=None, **spec', 'A live table whose rows are addressed by id.'),
  liveBuilder('table_column', 'column_id, label=None, **spec', 'A column declaration for a live table.', { node: undefined }),
  liveBuilder('table_row', 'row_id, cells, **spec', 'A row declaration for a live table.', { node: undefined }),
  liveBuilder('link', 'node_id, links=None, **spec', 'A live node of links to URLs, files or attachments.'),
];

const testing = (typed: boolean): MemberSpec =>
  obj('testing', '_Testing', 'Helpers for testing an extension: a live-view recorder and tree and catalog assertions.', [
    cls('LiveRecorder', 'inner, view_id="test-live-view"', 'An in-memory live host that records what an extension sends to its live views.'),
    fn('assert_tree', 'actual, expected, path="view"', 'Asserts that a nested value equals the expected one, pointing at the first difference.'),
    ...(typed ? [fn('assert_catalog', 'catalog: Catalog, *, names: Sequence[str], mutations: Sequence[str] = ()', 'Asserts the public tool names and mutations of a Catalog, and that no type is unresolved.')] : []),
  ]);

const SLASH_RESULTS: MemberSpec[] = [
  fn('ok', 'title, body=None, data=None', 'A successful slash-command result.', { returns: 'dict' }),
  fn('err', 'title, body=None, data=None', 'A failed slash-command result.', { returns: 'dict' }),
];

const STRINGS_OF = fn('strings_of', 'value', 'Every string inside a nested value, keys included.', { returns: 'list[str]' });
const HOST_ENV = fn('host_env', 'name, default=None', 'Reads an environment variable the extension declared in env=; any other name gives `default`.');

// ---------------------------------------------------------------------------------------------
// G1: `import vis` (Vis 0.1.41, vis-sdk.md §4)

const G1_EXTENSION_PARAMS: Record<string, ParamSpec> = {
  name: { doc: 'The extension name (a non-empty string).' },
  description: { doc: 'What the extension does (a non-empty string).' },
  alias: { doc: 'The prefix of the sandbox names of its tools (`<alias>_<name>`); required with symbols.' },
  activation: { doc: 'A callable (env) -> bool evaluated each turn.', calls: 'env' },
  symbols: { doc: 'The vis.symbol(...) tools.' },
  prompt: { doc: 'Text, or a callable (env) returning text, for the system prompt.', calls: 'env' },
  slash_commands: { doc: 'The vis.slash(...) commands.' },
  op_hooks: { doc: 'The vis.op_hook(...) hooks.' },
  ctx: { doc: 'A callable (env) -> dict of session contributions.', calls: 'env' },
  providers: { doc: 'The vis.provider(...) providers.' },
  network_filters: { doc: 'The vis.network_filter(...) filters.' },
  env: { doc: 'Names of the environment variables the extension reads.' },
};

/** The provider callbacks: what each is for and how many positional arguments the host calls it with. */
const PROVIDER_SLOTS: Record<string, ParamSpec> = {
  get_token_fn: { doc: 'Returns a ProviderCredential or None; takes no argument.', calledWith: { positional: [0] } },
  detect_fn: { doc: 'Detects an existing credential; takes no argument.', calledWith: { positional: [0] } },
  status_fn: { doc: 'Returns a ProviderStatus; takes no argument.', calledWith: { positional: [0] } },
  logout_fn: { doc: 'Logs out; takes no argument.', calledWith: { positional: [0] } },
  limits_fn: { doc: 'Returns ProviderLimits; takes no argument.', calledWith: { positional: [0] } },
  refresh_token_fn: { doc: 'Returns a fresh ProviderCredential; takes the rejected token or nothing.', calledWith: { positional: [1, 0] } },
  auth_fn: { doc: 'Starts a login; takes a printer callback.', calledWith: { positional: [1] } },
  auth_prompt_fn: { doc: 'Returns the login instructions as text or lines; takes no argument.', calledWith: { positional: [0] } },
  enrich_models_fn: { doc: 'Returns ProviderModel values; takes the provider and the router options.', calledWith: { positional: [2] } },
  on_selected_fn: { doc: 'Called with the selection when the provider is chosen.', calledWith: { positional: [1] } },
};

const PROVIDER_CALLBACKS = Object.keys(PROVIDER_SLOTS).map((k) => `${k}=None`).join(', ');

export const G1_MODULE: ModuleSpec = {
  name: 'vis',
  doc: 'The G1 Vis SDK of Vis 0.1.41: dict builders, where vis.extension(...) registers the file.',
  family: 'g1',
  members: [
    fn(
      'extension',
      'name=None, description=None, version=None, kind=None, alias=None, activation=None, symbols=None, prompt=None, slash_commands=None, op_hooks=None, ctx=None, providers=None, network_filters=None, env=None',
      'Registers the extension of this file, once, resolving its declared environment at once.',
      { params: G1_EXTENSION_PARAMS, retiredBuilder: true },
    ),
    fn('symbol', 'fn, name=None, tag="observation", is_hidden=False', 'Declares a function as a tool; the sandbox binds it as `<alias>_<name>` and its docstring becomes its doc().', {
      returns: 'dict',
      retiredBuilder: true,
      params: {
        fn: { doc: 'The function; its docstring is required.' },
        name: { doc: 'The registry name (default: the function name, without a leading `<alias>_`).' },
        tag: { vocab: 'tag', doc: 'observation or mutation.' },
        is_hidden: { doc: 'Hide the tool from discovery.' },
        hidden: { doc: 'Hide the tool from discovery.' },
      },
      variants: [{ releases: { only: ['g1-docs'] }, sig: 'fn, name=None, tag="observation", hidden=False' }],
    }),
    fn('slash', 'name, run, doc=None, usage=None', 'Declares a slash command for the user.', {
      returns: 'dict',
      retiredBuilder: true,
      params: { name: { doc: 'The command name.' }, run: { doc: 'Called with the command context; returns vis.ok(...), vis.err(...) or text.', calls: 'ctx' } },
    }),
    constant('GATE_OPS', 'tuple[str, ...]', 'The gate ops, asked before an operation and never wrapped: fs_access.'),
    fn('op_hook', 'ops, fn, phase="before"', 'Declares a hook over host operations, or the fs_access gate.', {
      returns: 'dict',
      retiredBuilder: true,
      params: { ops: { vocab: 'op', doc: 'A list of op names (a bare string is split into characters).' }, fn: { doc: 'Called with the operation.', calls: 'call' }, phase: { vocab: 'phase', doc: 'before or after.' } },
    }),
    fn('network_filter', 'fn', 'Declares a filter over network requests and responses.', { returns: 'dict', retiredBuilder: true, params: { fn: { doc: 'Called with each request and response.', calls: 'request' } } }),
    fn('provider', `id, label, preset=None, is_managed=False, ${PROVIDER_CALLBACKS}`, 'Declares a model provider with its credential and status callbacks.', {
      returns: 'dict',
      retiredBuilder: true,
      params: { preset: { doc: 'Endpoint defaults as a dict.' }, is_managed: { doc: 'The runtime issues the credential, so no API key is asked for.' }, ...PROVIDER_SLOTS },
      variants: [{ releases: { only: ['g1-docs'] }, sig: `id, label, preset=None, ${PROVIDER_CALLBACKS}` }],
    }),
    HOST_ENV,
    ...SLASH_RESULTS,
    fn('block', 'reason', 'Refuses the operation a before hook is deciding.', { returns: 'dict' }),
    STRINGS_OF,
    state(),
    log(),
    notify(),
    SHELL_CLASS,
    shellCall('shell', 'Runs a command through the unconfined shell and returns its handle.'),
    shellCall('jailed_shell', 'Runs a command inside the workspace jail.'),
    shellCall('jailed_shell_session', "Runs a command inside the calling session's jail policy."),
    ANSWER_CLASS,
    ASK,
    fn('check', 'title, fields, **options', 'None when a form is valid, else the one line saying what to fix.'),
    ...FORM_BUILDERS,
    formBuilder('heading', 'A section title in a form.', 'text', { type: 'heading', in: 'form' }),
    formBuilder('paragraph', 'Prose in a form.', 'text', { type: 'paragraph', in: 'form' }),
    ...SECRETS,
    ...liveNodeClasses(false),
    liveView(false),
    LIVE,
    testing(false),
    ...LIVE_BUILDERS,
    ...internal('inspect', 'time', 'outside'),
  ],
};

// ---------------------------------------------------------------------------------------------
// The typed SDK: `import blockether.vis.extension as vis` (G2 and G3, vis-sdk.md §2)

const ACTIVITY_BLOCKS: MemberSpec[] = [
  cls('ActivityText', 'text: str', 'Plain Activity text.', { typedOnly: true }),
  cls('ActivityHeading', 'text: str', 'A heading in Activity content.', { typedOnly: true }),
  cls('ActivityMarkdown', 'text: str', 'Markdown Activity content.', { typedOnly: true }),
  cls('ActivityCode', 'text: str, language: str | None = None', 'Code in Activity content, with an optional language.', { typedOnly: true }),
  cls('ActivityDiff', 'text: str, language: str | None = None', 'A diff in Activity content.', { typedOnly: true }),
  cls('ActivityTable', 'columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...], paths: tuple[str, ...] | None = None', 'A rectangular table in Activity content; paths name one file per row.', {
    typedOnly: true,
    params: { paths: { releases: { from: 'f16a4d6f' } } },
  }),
  cls('ActivityFile', 'attachment_id: str, label: str', 'An existing attachment in Activity content.', { typedOnly: true }),
  cls('ActivityImage', 'attachment_id: str, label: str', 'An existing image attachment in Activity content.', { typedOnly: true }),
  cls('ActivityVideo', 'attachment_id: str, label: str', 'An existing video attachment in Activity content.', { typedOnly: true }),
  cls('ActivityAudio', 'attachment_id: str, label: str', 'An existing audio attachment in Activity content.', { typedOnly: true }),
  cls('ActivityProgress', 'label: str, value: int | float | None = None, total: int | float | None = None', 'Progress in Activity content: value and total together, or neither for an indeterminate one.', { typedOnly: true }),
  alias('ActivityBlock', 'ActivityText | ActivityHeading | ... | ActivityProgress', 'Any of the Activity content blocks.', { typedOnly: true }),
];

const G3_ONLY: ReleaseSet = { gen: ['G3'] };
const HANDLES: ReleaseSet = { from: '9aa9dbe6' };
const ST_RELEASES: ReleaseSet = { from: 'fb4b47f0' };

const EXTENSION_FIELDS: Record<string, ParamSpec> = {
  name: { doc: 'The extension name (non-blank); Vis keys its state by it.' },
  description: { doc: 'What the extension does (non-blank).' },
  version: { doc: 'The extension version.' },
  kind: { doc: 'An extension kind the host understands.' },
  alias: { doc: 'The registry identity, not a tool-name prefix; required when symbols are declared.' },
  activation: { doc: 'A callable (env) -> bool evaluated each turn.', calls: 'env' },
  symbols: { holds: 'Symbol', doc: 'The Symbol declarations of functions or object namespaces.' },
  prompt: { doc: 'Instructions for the system prompt: text, or a callable (env) returning text.', calls: 'env' },
  slash_commands: { holds: 'SlashCommand', doc: 'The SlashCommand declarations.' },
  op_hooks: { holds: 'OpHook', doc: 'The OpHook declarations over host operations.' },
  language_tools: { holds: 'LanguageSurface', releases: { only: ['1a8b6ead'] }, doc: 'The LanguageSurface declarations.' },
  ctx: { doc: 'A callable (env) -> dict contributed to the session context.', calls: 'env' },
  providers: { holds: 'Provider', doc: 'The Provider declarations.' },
  network_filters: { holds: 'NetworkFilter', doc: 'The NetworkFilter declarations.' },
  settings: { holds: 'Setting', releases: ST_RELEASES, doc: 'The Setting declarations shown in the settings of the app and the TUI.' },
  env: { doc: 'Names of the environment variables resolved at registration.' },
};

/** The handlers a LanguageSurface can declare, in field order (the order the SDK checks them). */
export const LANGUAGE_HANDLERS = ['syntax', 'balance', 'format', 'lint', 'test', 'repl_eval', 'repl_start'];


const TYPED_PROVIDER_SLOTS =
  'get_token_fn: Callable[[], ProviderCredential | None] | None = None, detect_fn: Callable[[], ProviderCredential | None] | None = None, status_fn: Callable[[], ProviderStatus | None] | None = None, logout_fn: Callable[[], None] | None = None, limits_fn: Callable[[], ProviderLimits | None] | None = None, refresh_token_fn: Callable[[str | None], ProviderCredential | None] | Callable[[], ProviderCredential | None] | None = None, auth_fn: Callable[[Callable[[str], None]], str | bool | None] | None = None, auth_prompt_fn: Callable[[], Sequence[str] | str | None] | None = None, enrich_models_fn: Callable[[Mapping[str, ProviderJSON], Mapping[str, ProviderJSON]], Sequence[ProviderModel] | None] | None = None, on_selected_fn: Callable[[Mapping[str, ProviderJSON]], None] | None = None';

const PROVIDER_FAMILY: MemberSpec[] = [
  cls('Provider', `id: str, label: str, preset: ProviderPreset | None = None, is_managed: bool = False, ${TYPED_PROVIDER_SLOTS}`, 'Declares a model provider: its endpoint defaults and synchronous credential, status and limits callbacks.', {
    typedOnly: true,
    params: { id: { doc: 'The provider id (non-blank).' }, label: { doc: 'The name people see (non-blank).' }, preset: { doc: 'A ProviderPreset (a dict is refused).' }, is_managed: { doc: 'The runtime issues the credential.' }, ...PROVIDER_SLOTS },
  }),
  cls(
    'ProviderPreset',
    '*, base_url: str | None = None, api_style: ProviderAPIStyle | None = None, default_models: Sequence[str] = (), responses_path: str | None = None, llm_headers: Mapping[str, str] | None = None, extra_body: Mapping[str, ProviderJSON] | None = None, is_hidden: bool | None = None, extra: Mapping[str, ProviderJSON] | None = None',
    'The base URL, wire dialect and default models a provider starts from (no secrets).',
    { typedOnly: true, params: { api_style: { vocab: 'api-style' } } },
  ),
  cls(
    'ProviderCredential',
    'token: str, api_url: str | None = None, api_style: ProviderAPIStyle | None = None, responses_path: str | None = None, llm_headers: Mapping[str, str] | None = None, source: str | None = None',
    'What a provider callback returns to authenticate: a token, optionally an endpoint and headers.',
    { typedOnly: true, params: { api_style: { vocab: 'api-style' } } },
  ),
  cls(
    'ProviderStatus',
    'is_authenticated: bool, error: str | None = None, source: str | None = None, provider_id: str | None = None, status: str | None = None, base_url: str | None = None, label: str | None = None, config_path: str | None = None, extra: Mapping[str, ProviderJSON] | None = None',
    'What status_fn reports: whether the provider is signed in, and details to show.',
    { typedOnly: true },
  ),
  cls('ProviderModel', 'name: str, context: int | None = None, is_tool_call: bool | None = None, is_image_input: bool | None = None, extra: Mapping[str, ProviderJSON] | None = None', 'One model with its context size and capabilities, as enrich_models_fn lists them.', { typedOnly: true }),
  cls('ProviderLimitWindow', 'kind: ProviderWindowKind, unit: ProviderWindowUnit | None = None, size: int | None = None, resets_at_ms: int | None = None', 'The window a usage limit is counted over.', {
    typedOnly: true,
    params: { kind: { vocab: 'window-kind' }, unit: { vocab: 'window-unit' } },
  }),
  cls(
    'ProviderLimit',
    'id: str, label: str, scope: ProviderLimitScope, kind: ProviderLimitKind, precision: ProviderLimitPrecision, source: ProviderLimitSource, is_unlimited: bool = False, used: int | float | None = None, limit: int | float | None = None, remaining: int | float | None = None, window: ProviderLimitWindow | None = None, subject: Mapping[str, ProviderJSON] | None = None, note: str | None = None',
    'One usage limit row.',
    { typedOnly: true, params: { scope: { vocab: 'limit-scope' }, kind: { vocab: 'limit-kind' }, precision: { vocab: 'limit-precision' }, source: { vocab: 'limit-source' } } },
  ),
  cls('ProviderError', 'type: str, message: str, data: Mapping[str, ProviderJSON] | None = None', 'A failure to read usage limits.', { typedOnly: true }),
  cls(
    'ProviderLimits',
    '*, status: ProviderLimitStatus = "ok", limits: Sequence[ProviderLimit] = (), rpm: int | None = None, tpm: int | None = None, note: str | None = None, error: ProviderError | None = None, provider_id: str | None = None, fetched_at_ms: int | None = None',
    'A usage snapshot of a provider.',
    { typedOnly: true, params: { status: { vocab: 'limits-status' } } },
  ),
  alias('ProviderJSON', 'str | int | float | bool | None | Mapping[str, ProviderJSON] | Sequence[ProviderJSON]', 'Portable JSON data in provider records.', { typedOnly: true }),
  alias('ProviderAPIStyle', 'Literal[...]', 'The wire dialects a provider can speak.', { typedOnly: true }),
  alias('ProviderLimitStatus', 'Literal["error", "ok", "unauthenticated", "unknown-provider", "unsupported"]', 'The states of a usage snapshot.', { typedOnly: true }),
  alias('ProviderLimitScope', 'Literal["account", "model", "plan", "workspace"]', 'What a usage limit applies to.', { typedOnly: true }),
  alias('ProviderLimitKind', 'Literal["credits", "rate", "requests", "sessions", "tokens", "usd"]', 'What a usage limit counts.', { typedOnly: true }),
  alias('ProviderWindowKind', 'Literal["calendar", "lifetime", "rolling"]', 'The kinds of limit window.', { typedOnly: true }),
  alias('ProviderWindowUnit', 'Literal["day", "hour", "minute", "month", "week", "year"]', 'The units of a limit window.', { typedOnly: true }),
  alias('ProviderLimitPrecision', 'Literal["derived", "estimate", "exact", "unknown"]', 'How exact a usage figure is.', { typedOnly: true }),
  alias('ProviderLimitSource', 'Literal["derived", "local", "provider-api", "static"]', 'Where a usage figure comes from.', { typedOnly: true }),
];

const CONTRACT_RECORDS: MemberSpec[] = [
  cls('TypeSpec', 'kind: str, name: str, description: str = "", arguments: tuple[TypeSpec, ...] = (), fields: tuple[FieldSpec, ...] = (), values: tuple[str | int | bool | None, ...] = (), variadic: bool = False, sequence_field: str | None = None', 'A type in a tool contract, never evaluated.', {
    typedOnly: true,
    params: { sequence_field: { releases: G3_ONLY } },
  }),
  cls('FieldSpec', 'name: str, type: TypeSpec, required: bool, has_default: bool, default_is_none: bool', 'A record field in a tool contract.', { typedOnly: true }),
  cls('ParameterSpec', 'name: str, type: TypeSpec, required: bool, has_default: bool, default_is_none: bool, kind: str, default_source: str | None', 'A parameter in a tool contract; default_source is the literal default as source.', {
    typedOnly: true,
    params: { default_source: { releases: { from: 'fb4b47f0' } } },
  }),
  cls('ToolSpec', 'version: int, name: str, tag: SymbolTag, description: str, signature: str, parameters: tuple[ParameterSpec, ...], returns: TypeSpec', 'The typed view of one tool contract.', { typedOnly: true }),
  cls('NamespaceSpec', 'name: str, members: tuple[ToolSpec, ...]', 'A namespace and the tools under it, by full dotted name.', { typedOnly: true }),
  cls('HelpDocument', 'tool: str, text: str', 'The reference text Catalog.help renders for a tool.', { typedOnly: true }),
];

export const TYPED_MODULE_SPEC: ModuleSpec = {
  name: 'blockether.vis.extension',
  doc: 'The typed Vis SDK: frozen declarations registered once with vis.register (G2) or vis.register_extension (G3).',
  family: 'typed',
  members: [
    cls('Extension', '*, name: str, description: str, version: str | None = None, kind: str | None = None, alias: str | None = None, activation: Callable[..., Any] | None = None, symbols: Sequence[Symbol] = (), prompt: str | Callable[..., Any] | None = None, slash_commands: Sequence[SlashCommand] = (), op_hooks: Sequence[OpHook] = (), language_tools: Sequence[LanguageSurface] = (), ctx: Callable[..., Any] | None = None, providers: Sequence[Provider] = (), network_filters: Sequence[NetworkFilter] = (), settings: Sequence[Setting] = (), env: Sequence[str] = ()', 'Declares an extension: its name, tools, prompt, hooks, providers and the rest, by keyword only.', {
      typedOnly: true,
      params: EXTENSION_FIELDS,
    }),
    fn('register', 'extension: Extension', 'Registers the extension of this entry file, once (G2).', { returns: 'None', releases: { gen: ['G2'] }, typedOnly: true }),
    fn('register_extension', 'extension: Extension', 'Registers the extension of this entry file, once, resolving its declared environment (G3).', { returns: 'None', releases: G3_ONLY, typedOnly: true }),
    cls('Symbol', 'fn: Callable[..., Any] | object, name: str | None = None, tag: SymbolTag = "observation", is_hidden: bool = False, activity: Activity | None = None', "Makes a function a tool, or an object a namespace of tools (one per public method); it is checked and its contract built when created.", {
      typedOnly: true,
      params: {
        fn: { doc: 'A function (its docstring becomes the tool doc), or an object whose public methods form a namespace.' },
        name: { doc: 'The public tool name; required for an object, and a public Python identifier.' },
        tag: { vocab: 'tag', doc: 'What the tool does: observation, mutation (and in newer SDKs verification, external).' },
        is_hidden: { doc: 'Hide the tool from discovery; the callable stays.' },
        activity: { doc: 'The vis.Activity people see for a function; for an object declare it on each vis.method instead.' },
      },
      members: [{ name: 'contract', kind: 'constant', type: 'dict[str, Any]', doc: 'The portable description of the tool as the model sees it.' }],
    }),
    fn('method', 'fn: Any = None, *, tag: SymbolTag = "observation", is_hidden: bool = False, activity: Activity | None = None', 'Sets the tag, hidden flag and Activity of one method of a namespace object.', {
      typedOnly: true,
      params: {
        fn: { doc: 'The method; leave it out to use @vis.method(...).' },
        tag: { vocab: 'tag', doc: 'What the method does.' },
        is_hidden: { doc: 'Hide the method from discovery.' },
        activity: { doc: 'The vis.Activity people see for this method.' },
      },
    }),
    fn('sequence', '*, field: str', "Lets the sandbox iterate, index and len() a returned dataclass through one of its list or tuple fields; write it above @dataclass (G3).", {
      releases: G3_ONLY,
      typedOnly: true,
      params: { field: { doc: 'The name of the dataclass field that holds the items.' } },
    }),
    alias('SymbolTag', 'Literal["observation", "mutation", "verification", "external"]', 'The tags of a tool call; annotate a tag kept in a variable with it.', { typedOnly: true }),
    cls('Catalog', 'symbols: Sequence[Symbol]', 'Looks up the specs and help text of a list of Symbols, for tests and docs, without calling them.', {
      typedOnly: true,
      members: [fn('spec', 'name: str | None = None', 'The ToolSpec or NamespaceSpec of a name, or the top-level specs.'), fn('help', 'name: str', 'The reference text doc() shows for a tool or namespace.')],
    }),
    cls('SlashCommand', 'name: str, run: Callable[..., Any], doc: str | None = None, usage: str | None = None', 'Declares a command people type as /name; the model never sees it.', {
      typedOnly: true,
      params: { name: { doc: 'The command name (non-blank).' }, run: { doc: 'Called with {channel, args, raw, session_id}; returns vis.ok(...), vis.err(...) or text.', calls: 'ctx' }, doc: { doc: 'What the command does.' }, usage: { doc: 'How to call it.' } },
    }),
    constant('GATE_OPS', 'tuple[str, ...]', 'The gate ops, asked before an operation and never wrapped: fs_access.'),
    cls('OpHook', 'ops: Sequence[str], fn: Callable[..., Any], phase: Literal["before", "after"] = "before"', 'Declares a callback run around host operations, or the fs_access gate; one hook is either kind, never both.', {
      typedOnly: true,
      params: {
        ops: { vocab: 'op', doc: 'A non-empty list of op names (a bare string is refused).' },
        fn: { doc: 'Called with {op, args} (and result after); before may return vis.block(...).', calls: 'call' },
        phase: { vocab: 'phase', doc: 'before or after; a gate is always asked before.' },
      },
    }),
    cls('NetworkFilter', 'fn: Callable[..., Any]', 'Declares a callback that sees and may refuse network traffic; an error refuses the request.', {
      typedOnly: true,
      params: { fn: { doc: 'Called with each request and response: {phase, method, host, path, headers[, status]}.', calls: 'request' } },
    }),
    cls(
      'LanguageSurface',
      `*, language: str, extensions: Sequence[str] = (), is_exact_syntax: bool = False, ${LANGUAGE_HANDLERS.map((h) => `${h}: Callable[..., Any] | None = None`).join(', ')}`,
      "A language's syntax, format, lint, test and REPL handlers for the host (only in the SDK version with language_tools).",
      {
        typedOnly: true,
        releases: { only: ['1a8b6ead'] },
        params: {
          language: { doc: "A lowercase language name such as 'toml'." },
          extensions: { doc: "File suffixes such as ['toml']." },
          ...Object.fromEntries(LANGUAGE_HANDLERS.map((h) => [h, h === 'repl_start' ? { doc: 'Called with (op, options).', calls: 'op, options' } : { doc: `Called with one argument (${h === 'balance' ? 'the source' : 'the request'}).`, calls: h === 'balance' ? 'source' : 'request' }])),
        },
      },
    ),
    cls(
      'Setting',
      '*, id: str, label: str, default: bool | str, type: str = "boolean", choices: Sequence[str] = (), scopes: Sequence[str] | None = None, description: str | None = None, parent: str | None = None',
      'Declares an on/off or pick-one option people set in Vis; building it already asks the host to validate it.',
      {
        typedOnly: true,
        releases: ST_RELEASES,
        params: {
          id: { doc: 'A lower-case snake_case id, unique across Vis and every loaded extension.' },
          label: { doc: 'The name people see.' },
          default: { doc: 'A bool for a boolean setting, one of the choices for an enum.' },
          type: { vocab: 'setting-type', doc: 'boolean or enum.' },
          choices: { doc: 'The string choices of an enum setting.' },
          scopes: { vocab: 'setting-scope', doc: 'Where it can be set: global, project, group, session (global only by default).' },
          parent: { releases: { only: ['f3ef1e26'] }, doc: 'Another setting of the same section this one is shown under.' },
        },
        members: [fn('value', '', 'The value the setting has for the current callback (a bool or a choice, like its default).')],
      },
    ),
    cls('Activity', 'presenter: str = "generic", label: str | None = None, render: Callable[..., ActivityPresentation | None] | None = None, show_start: bool = True', 'How people see a tool call: its presenter, label, optional render callback and whether a running row shows.', {
      typedOnly: true,
      params: {
        presenter: { vocab: 'presenter', doc: 'The presentation category; generic for ordinary tools.' },
        label: { doc: 'One non-blank line of at most 96 characters, in sentence case.' },
        render: { doc: 'A synchronous callback taking phase, args, kwargs, result and error as keywords; returns an ActivityPresentation or None.', calledWith: { keywords: ['phase', 'args', 'kwargs', 'result', 'error'] } },
        show_start: { releases: { except: ['4f9b7a0d'] }, doc: 'Show a running row before the call settles; False for fast operations.' },
      },
    }),
    cls('ActivitySection', 'headline: str, summary: str, content: tuple[ActivityBlock, ...] = (), *, summary_format: Literal["inline", "markdown"] | None = None', 'A headline and summary line shown at once, and typed content shown when unfolded.', {
      typedOnly: true,
      params: { summary_format: { vocab: 'summary-format', releases: G3_ONLY } },
    }),
    cls(
      'ActivityPresentation',
      'headline: str, summary: str, content: tuple[ActivityBlock, ...] = (), sections: tuple[ActivitySection, ...] = (), *, summary_format: Literal["inline", "markdown"] | None = None, handle_id: str | None = None, verdict: Literal["passed", "failed"] | None = None',
      'What one tool call shows: headline, summary, content and sections, optionally tied to a handle and a verdict.',
      {
        typedOnly: true,
        params: { summary_format: { vocab: 'summary-format', releases: G3_ONLY }, handle_id: { releases: HANDLES }, verdict: { vocab: 'verdict', releases: HANDLES } },
      },
    ),
    ...ACTIVITY_BLOCKS,
    fn('publish_activity', 'presentation: ActivityPresentation', "Shows an intermediate presentation for the tool call in progress; False when there is none or it is refused.", { returns: 'bool', typedOnly: true }),
    ...CONTRACT_RECORDS,
    ...PROVIDER_FAMILY,
    fn('block', 'reason, hint=None', 'What a before hook returns to stop the operation; the model gets the reason and, when given, a hint.', {
      returns: 'dict',
      params: { hint: { releases: ST_RELEASES } },
    }),
    fn('repair', 'source, *, notes', 'What a before hook on patch returns to have the host write corrected text instead.', { returns: 'dict', releases: ST_RELEASES, params: { notes: { doc: 'A non-empty list of non-blank strings.' } } }),
    ...SLASH_RESULTS,
    STRINGS_OF,
    HOST_ENV,
    state(),
    fn('workspace_root', '', "The folder the calling session works in, as a Path (the current directory when run outside Vis).", { returns: 'Path' }),
    log(),
    notify(),
    SHELL_CLASS,
    shellCall('shell', 'Runs a command through the unconfined shell and returns its handle.'),
    shellCall('jailed_shell', 'Runs a command inside the workspace jail.'),
    shellCall('jailed_shell_session', "Runs a command inside the calling session's jail policy (removed in later G3).", { releases: { to: '1a8b6ead' } }),
    obj('fs', '_Fs', "File operations on the extension's own files that the jail does not refuse (unlike open()); the model's sandbox cannot use them.", [
      fn('read', 'path', 'Reads a file as bytes.'),
      fn('read_text', 'path, encoding="utf-8"', 'Reads a file as text.'),
      fn('write', 'path, data, append=False', 'Writes text or bytes to a file.'),
      fn('list', 'path', 'Lists a directory.'),
      fn('copy', 'src, dst', 'Copies a file.'),
      fn('move', 'src, dst', 'Moves a file.'),
      fn('remove', 'path', 'Removes a file.'),
      fn('mkdir', 'path', 'Creates a directory.'),
      fn('stat', 'path', 'Stats a path, or None when it does not exist.'),
      fn('exists', 'path', 'Whether a path exists.'),
    ], { closed: true, pythonType: '_Fs' }),
    obj('tools', '_Tools', 'Calls any tool of the current session by its public name, as vis.tools.spel.reserve(...) or vis.tools["spel.reserve"](...).', [], { releases: { from: 'f16a4d6f' } }),
    obj('council', '_Council', "Messaging into the session that owns the extension, from code that runs outside a tool call.", [
      fn('wake', 'content: str, *, kind: Literal["complain", "coordination", "informational"], thread_id: int | None = None, title: str | None = None, idempotency_key: str | None = None', "Posts a message into the extension's session (complaint, coordination or information), which may start a turn.", {
        params: { kind: { vocab: 'council-kind' } },
      }),
    ]),
    ANSWER_CLASS,
    ASK,
    ...FORM_BUILDERS,
    formBuilder('heading', 'A section title in a form, or a live heading `heading(id, text, level=1..6)`.', 'text, live_text=None, **spec', { type: 'heading', in: 'both' }),
    formBuilder('paragraph', 'Prose in a form, or a live paragraph `paragraph(id, text)` with inline Markdown.', 'text, live_text=None, **spec', { type: 'paragraph', in: 'both' }),
    ...SECRETS,
    ...liveNodeClasses(true),
    cls('TextNode', 'view, node_id, type_name', 'The handle of a live paragraph, heading or code block.'),
    cls('Spinner', 'view, node_id, type_name', 'The handle of a live spinner.'),
    cls('Button', 'view, node_id, type_name', 'The handle of a live button.'),
    alias('LogTone', 'Literal["idle", "running", "ok", "warn", "error"]', 'The styles of live-log lines.'),
    liveView(true),
    LIVE,
    testing(true),
    ...LIVE_BUILDERS,
    liveBuilder('disclosure', 'node_id, label, *nodes, default_expanded=False', 'A live column people can fold and unfold.', { node: { type: 'group', in: 'live' } }),
    liveBuilder('divider', 'node_id', 'A separator line in a live view.'),
    liveBuilder('code', 'node_id, text, *, language=None, **spec', 'A live node showing source code as text (it is never run).'),
    liveBuilder('spinner', 'node_id, text="Working", *, variant="braille", is_active=True, **spec', 'A live busy indicator.'),
    liveBuilder('button', 'node_id, label, *, is_disabled=False, **spec', 'A live button; the extension reads how often it was pressed from view.state().'),
    liveBuilder('table_group', 'group_id, label=None, **spec', 'A group declaration for a live table, which rows name as their parent.', { node: undefined }),
    cls('Host', '', 'The interface a Vis host gives the SDK (state, logs, shells, dialogs...); extensions do not call it.'),
    ...internal(
      'annotations',
      'ast',
      'builtins',
      'inspect',
      'json',
      'math',
      'sys',
      'time',
      'Callable',
      'Mapping',
      'Sequence',
      'contextmanager',
      'MISSING',
      'dataclass',
      'field',
      'fields',
      'is_dataclass',
      'make_dataclass',
      'PathLike',
      'Path',
      'FunctionType',
      'MappingProxyType',
      'MethodType',
      'ModuleType',
      'UnionType',
      'Annotated',
      'Any',
      'ClassVar',
      'Generic',
      'Literal',
      'Optional',
      'Protocol',
      'TypeAlias',
      'TypeVar',
      'Union',
      'get_args',
      'get_origin',
      'overload',
      'runtime_checkable',
      'outside',
    ),
  ],
};

export const BLOCKETHER_VIS_MODULE: ModuleSpec = {
  name: 'blockether.vis',
  doc: 'The Vis SDK package.',
  family: 'typed',
  members: [{ name: 'extension', kind: 'module', doc: 'The typed extension SDK (blockether.vis.extension).' }],
};

// ---------------------------------------------------------------------------------------------
// vis-lang-interface (vis-lang-interface.md): the members extensions call at registration

const RESULT_TYPES: MemberSpec[] = [
  cls('Diagnostic', 'path, line, column, level, message, rule=""', 'One finding: a path, a 1-based line and column (0 when unknown), a level and a message.', {
    params: { level: { vocab: 'diagnostic-level', doc: 'error, warning or info.' } },
  }),
  cls('FormatResult', 'language, changed, unchanged, source="", is_written=False, lines_added=0, lines_removed=0', 'What a format run changed, with the line counts line_changes gives.', {
    params: { lines_added: { since: '2.2.1' }, lines_removed: { since: '2.2.1' }, changed: { doc: 'The paths that changed.' }, unchanged: { doc: 'The paths that were already formatted.' } },
  }),
  cls('LintResult', 'language, files, errors, warnings, diagnostics, is_clean', 'The findings of a lint run.', { members: [fn('of', 'language, diagnostics, files=0', 'Builds a LintResult, counting errors and warnings from the diagnostics.')] }),
  cls('SyntaxResult', 'language, files, errors, warnings, diagnostics, is_clean', 'The syntax errors of some files; an empty diagnostics tuple means they parse.', {
    since: '2.4.0',
    members: [fn('of', 'language, diagnostics, files=0', 'Builds a SyntaxResult from the diagnostics.')],
  }),
  cls('TestFailure', 'test, path, line, message', 'One failed test: its nested name, where it is and why it failed.'),
  cls('TestResult', 'language, total, passed, failed, skipped, duration_ms, failures, output="", is_passed=False', 'The outcome of a test run.', {
    members: [fn('of', 'language, *, total, passed, failed, skipped, duration_ms, failures=(), output=""', 'Builds a TestResult; it passed when nothing failed.')],
  }),
  cls('BuildArtifact', 'path, kind, size_bytes=0', 'One file a build produced.'),
  cls('BuildResult', 'language, target, artifacts, diagnostics, errors, warnings, duration_ms, output="", is_built=False', 'The outcome of a build.', {
    members: [fn('of', 'language, target, *, artifacts=(), diagnostics=(), duration_ms=0, output="", is_built=True', 'Builds a BuildResult, counting errors and warnings from the diagnostics.')],
  }),
  cls('ReplResult', 'language, id, value, output, error, duration_ms, is_running, code=""', 'The outcome of one REPL evaluation.'),
  cls('ReplSession', 'language, id, directory, command, is_running, detail=""', 'A REPL that stays alive between calls.'),
  constant('LEVELS', 'tuple[str, ...]', 'The diagnostic levels: error, warning, info.'),
];

const LINE_CHANGES = fn('line_changes', 'before, after', 'The lines an edit added and removed, as git diff --minimal --numstat counts them.', { returns: 'tuple[int, int]', since: '2.4.0' });

const ROUTING = fn('routing', 'language, alias, verbs=VERBS, *, notes=()', 'The system-prompt block that tells the model which language verbs the extension offers.', {
  returns: 'str',
  since: '2.1.0',
  params: {
    language: { doc: 'The language name, as people write it.' },
    alias: { doc: "The extension's alias the verbs are called under." },
    verbs: { vocab: 'routing-verb', doc: 'The verbs the extension offers (all of prompt.VERBS by default).' },
    notes: { doc: 'Routing and policy notes, one line each.' },
  },
});

const SYNTAX_GUARD = cls(
  'SyntaxGuard',
  'language, suffixes, check, *, repair=None, most_files=200, workspace_root=..., state=...',
  "Keeps files parseable: refuses patches that would break them, reports the files that stay broken and, from 2.7.0, applies the language's repairs.",
  {
    params: {
      suffixes: { doc: 'The file suffixes it covers (at least one).' },
      check: { doc: 'A private callback (sources, root) returning a SyntaxResult; never a public tool.', calls: 'sources, root' },
      repair: { since: '2.7.0', doc: 'A callback (source, *, original, spans, parses_clean) returning repaired source and notes, or None.', calls: 'source, *, original, spans, parses_clean' },
    },
    members: [fn('op_hooks', '', 'The three op hooks to register: before patch, before python_execution, and after both.'), fn('ctx', '', 'The session context of the files that do not parse.')],
  },
);

export const LANG_MODULES: ModuleSpec[] = [
  {
    name: 'vis_lang_interface',
    doc: 'The shared contract of Vis language extensions: result types, routing, line counts and the syntax guard.',
    members: [
      ...RESULT_TYPES,
      LINE_CHANGES,
      ...['results', 'changes', 'process', 'runtime', 'project', 'presentation', 'syntax', 'prompt'].map((m): MemberSpec => ({ name: m, kind: 'module', doc: `The vis_lang_interface.${m} module.` })),
    ],
  },
  { name: 'vis_lang_interface.results', doc: 'The result types language tools return.', members: RESULT_TYPES },
  { name: 'vis_lang_interface.changes', doc: 'Line counts of edits.', members: [LINE_CHANGES] },
  {
    name: 'vis_lang_interface.prompt',
    doc: 'The routing block of the system prompt.',
    members: [ROUTING, constant('VERBS', 'tuple[str, ...]', 'Every verb routing knows, in order: the toolchain verbs, then the REPL verbs.')],
  },
  { name: 'vis_lang_interface.syntax', doc: 'The syntax guard.', members: [SYNTAX_GUARD] },
];

export const MODULES: readonly ModuleSpec[] = [G1_MODULE, TYPED_MODULE_SPEC, BLOCKETHER_VIS_MODULE, ...LANG_MODULES];
