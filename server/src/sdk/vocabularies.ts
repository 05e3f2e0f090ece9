// The closed vocabularies of SDK parameters: tags, hook phases and op names, presenters, log and notify
// levels, `prompt.routing` verbs, Setting kinds and scopes, provider enums, and the vis-lang-interface
// levels. Each value names the releases that accept it where that changed between versions (the T4 tags,
// op names only older docs list). Descriptions are ours, written from the API documents.
import type { ReleaseSet } from './releases';

export interface VocabularyValue {
  value: string;
  doc: string;
  /** Releases that accept it; every release of the parameter's member when unset. */
  releases?: ReleaseSet;
}

export interface Vocabulary {
  id: string;
  /** What the vocabulary is, for hovers and completion details. */
  doc: string;
  /**
   * `sdk`: the SDK refuses any other value; `host`: the host ignores any other value (a hook that never
   * fires, a level shown as given); `typed`: only the type annotation names the values.
   */
  checkedBy: 'sdk' | 'host' | 'typed';
  values: readonly VocabularyValue[];
}

const T4: ReleaseSet = { only: ['fb4b47f0', 'a95f9ddb', 'b7cc997a', 'f3ef1e26'] };
/** Op names only the G1 docs before Vis 0.1.41 list (python-extensions.md); later G1 dropped them. */
const G1_DOCS_ONLY: ReleaseSet = { only: ['g1-docs'] };

function vocab(id: string, doc: string, checkedBy: Vocabulary['checkedBy'], values: VocabularyValue[]): Vocabulary {
  return { id, doc, checkedBy, values };
}

const v = (value: string, doc: string, releases?: ReleaseSet): VocabularyValue => ({ value, doc, releases });

/** `prompt.routing` verbs in `prompt.VERBS` order: the toolchain group, then the REPL group. */
export const ROUTING_VERBS = ['format_code', 'lint_code', 'run_tests', 'build', 'repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop'] as const;

const ROUTING_VERB_DOCS: Record<(typeof ROUTING_VERBS)[number], string> = {
  format_code: 'Formats source with the language toolchain.',
  lint_code: "Runs the language's linter and returns its findings.",
  run_tests: "Runs the project's tests.",
  build: 'Builds the project.',
  repl_start: 'Starts a REPL that stays alive between calls.',
  repl_status: 'Tells whether the REPL is still running.',
  repl_connect: 'Connects to a REPL that is already running.',
  repl_eval: 'Evaluates code in the running REPL.',
  repl_stop: 'Stops the REPL.',
};

/** The gate ops: asked before an operation, never wrapped (`GATE_OPS`). */
export const GATE_OPS = ['fs_access'] as const;

export const VOCABULARIES: readonly Vocabulary[] = [
  vocab('tag', 'What a tool does, as Activity reports it.', 'sdk', [
    v('observation', 'Reads state and changes nothing (the default).'),
    v('mutation', 'Changes local state.'),
    v('verification', 'Checks work: tests, lint, CI status.', T4),
    v('external', 'Reaches people or systems beyond the session: messages, publications, remote hosts.', T4),
  ]),
  vocab('phase', 'When an op hook runs.', 'sdk', [
    v('before', 'Before the operation: it may return vis.block(...) to refuse it (the default).'),
    v('after', 'After the operation, with its result; the return value is ignored.'),
  ]),
  vocab('op', 'The operations an op hook observes; hooks are found by op name, so any other name never fires.', 'host', [
    v('patch', 'A file patch; its before-hook payload also carries a preview of the edit.'),
    v('shell', 'A shell command.'),
    v('python_execution', 'A block of Python run in the sandbox.'),
    v('draft/create', 'A draft is created.'),
    v('draft/approve', 'A draft is approved.'),
    v('draft/discard', 'A draft is discarded.'),
    v('git/commit', 'A git commit.'),
    v('fs_access', 'The gate asked before the host file tools read or write a path; it takes a hook of its own and no after phase.'),
    v('write', 'A file write (listed by the G1 docs before Vis 0.1.41).', G1_DOCS_ONLY),
    v('struct_patch', 'A structural patch (listed by the G1 docs before Vis 0.1.41).', G1_DOCS_ONLY),
    v('move', 'A file move (listed by the G1 docs before Vis 0.1.41).', G1_DOCS_ONLY),
    v('copy', 'A file copy (listed by the G1 docs before Vis 0.1.41).', G1_DOCS_ONLY),
    v('delete', 'A file deletion (listed by the G1 docs before Vis 0.1.41).', G1_DOCS_ONLY),
    v('grep', "A search; the host's own example payloads use it."),
  ]),
  vocab('presenter', 'How the Activity of a tool call is presented.', 'sdk', [
    v('generic', 'The ordinary presentation (the default).'),
    v('shell', 'A shell command and its output.'),
    v('tests', 'A test run.'),
    v('patch', 'A file change.'),
    v('observation', 'A read.'),
    v('lint', 'Lint findings.'),
    v('repl', 'A REPL evaluation.'),
    v('format', 'A formatting run.'),
    v('list', 'A list of items.'),
  ]),
  vocab('log-level', 'The level of an engine log line; any other level is logged as given.', 'host', [
    v('trace', 'Finest detail.'),
    v('debug', 'Diagnostic detail.'),
    v('info', 'Normal events.'),
    v('warn', 'Something unexpected that was handled.'),
    v('error', 'A failure.'),
  ]),
  vocab('notify-level', "The level of a notification on the user's channel; any other level is shown as given.", 'host', [
    v('info', 'Neutral information (the default).'),
    v('success', 'Something finished well.'),
    v('warn', 'Something needs attention.'),
    v('error', 'Something failed.'),
  ]),
  vocab('setting-type', 'The kind of a setting.', 'host', [
    v('boolean', 'On or off; the default must be a bool (the default kind).'),
    v('enum', 'One of the string choices; the default must be one of them.'),
  ]),
  vocab('setting-scope', 'Where a setting can be set; a non-empty, duplicate-free subset (global only by default).', 'host', [
    v('global', 'For every project (in a project extension: the whole project).'),
    v('project', 'For one project.'),
    v('group', 'For a group of sessions.'),
    v('session', 'For one session.'),
  ]),
  vocab(
    'api-style',
    'The wire dialect of a provider endpoint (`ProviderAPIStyle`).',
    'sdk',
    [
      'anthropic',
      'anthropic-messages',
      'anthropic_messages',
      'claude',
      'messages',
      'openai',
      'openai-chat',
      'openai_chat',
      'openai-compatible',
      'openai_compatible',
      'openai-compatible-chat',
      'openai_compatible_chat',
      'chat',
      'chat-completions',
      'chat_completions',
      'openai-responses',
      'openai_responses',
      'openai-compatible-responses',
      'openai_compatible_responses',
      'responses',
      'gemini',
      'google',
      'google-gemini',
      'google_gemini',
    ].map((s) => v(s, apiStyleDoc(s))),
  ),
  vocab('limits-status', 'The state of a usage snapshot.', 'sdk', [
    v('ok', 'Limits were read (the default).'),
    v('error', 'Reading them failed.'),
    v('unauthenticated', 'No credential to read them with.'),
    v('unknown-provider', 'The provider is not known.'),
    v('unsupported', 'The provider reports no limits.'),
  ]),
  vocab('limit-scope', 'What a usage limit applies to.', 'sdk', [v('account', 'The account.'), v('model', 'One model.'), v('plan', 'The plan.'), v('workspace', 'The workspace.')]),
  vocab('limit-kind', 'What a usage limit counts.', 'sdk', [
    v('credits', 'Credits.'),
    v('rate', 'A rate.'),
    v('requests', 'Requests.'),
    v('sessions', 'Sessions.'),
    v('tokens', 'Tokens.'),
    v('usd', 'US dollars.'),
  ]),
  vocab('limit-precision', 'How exact a usage figure is.', 'sdk', [v('derived', 'Computed from other figures.'), v('estimate', 'Estimated.'), v('exact', 'Exact.'), v('unknown', 'Not known.')]),
  vocab('limit-source', 'Where a usage figure comes from.', 'sdk', [v('derived', 'Computed.'), v('local', 'Counted locally.'), v('provider-api', "The provider's API."), v('static', 'A fixed value.')]),
  vocab('window-kind', 'The kind of window a limit is counted over.', 'sdk', [v('calendar', 'A calendar period.'), v('lifetime', 'The whole lifetime.'), v('rolling', 'A rolling period.')]),
  vocab('window-unit', 'The unit of a limit window.', 'sdk', [v('minute', 'Minutes.'), v('hour', 'Hours.'), v('day', 'Days.'), v('week', 'Weeks.'), v('month', 'Months.'), v('year', 'Years.')]),
  vocab('summary-format', 'How an Activity summary is read.', 'sdk', [v('inline', 'Literal text (the default).'), v('markdown', 'Inline Markdown with HTTP(S) links.')]),
  vocab('verdict', 'The outcome a finished check reports.', 'sdk', [v('passed', 'Every check passed.'), v('failed', 'Tests failed or lint found something.')]),
  vocab('council-kind', 'The kind of event published to the bound session.', 'typed', [
    v('complain', 'Something is wrong.'),
    v('coordination', 'Work to coordinate.'),
    v('informational', 'For information only.'),
  ]),
  vocab('log-tone', 'The style of lines written to a live-view log.', 'sdk', [
    v('idle', 'Nothing happening.'),
    v('running', 'Work in progress.'),
    v('ok', 'Success.'),
    v('warn', 'A warning.'),
    v('error', 'An error.'),
  ]),
  vocab('field-type', 'The type of a `vis.ask` field.', 'host', [
    v('plaintext', 'One line of text.'),
    v('password', 'A masked line, answered as a secret handle.'),
    v('multiline', 'A text box.'),
    v('select', 'One of the options.'),
    v('multiselect', 'Any of the options.'),
    v('checkbox', 'A bool.'),
    v('range', 'A number on a track (min, max, step).'),
    v('otp', 'A one-time code in digit boxes, answered as a secret handle.'),
  ]),
  vocab('field-key', 'The keys of a `vis.ask` field spec (snake_case: Vis refuses camelCase and kebab-case spellings).', 'host', [
    v('name', 'The key of the answer (`id` is its synonym).'),
    v('id', 'A synonym of `name`; the id of a group in a live view.'),
    v('label', 'Shown above the input.'),
    v('description', 'The line under the label.'),
    v('type', 'The field type (plaintext by default).'),
    v('default', 'The value the field starts with.'),
    v('is_required', 'The field must be answered (a checkbox must be ticked).'),
    v('placeholder', 'Shown while the input is empty.'),
    v('options', 'The choices of a select or multiselect.'),
    v('min_length', 'The fewest characters (the boxes of an otp).'),
    v('max_length', 'The most characters (the boxes of an otp, 12 at most).'),
    v('validate', 'A function, or a list of them, judging the value when the form is confirmed.'),
    v('min', 'The lowest value of a range (0 by default).'),
    v('max', 'The highest value of a range (100 by default).'),
    v('step', 'How far a range moves (1 by default).'),
    v('fields', 'The children of a group.'),
    v('direction', 'How a group arranges them: column (the default) or row.'),
    v('text', 'The text of a heading or paragraph.'),
  ]),
  vocab('dialog-option', 'The options of a `vis.ask` dialog.', 'host', [
    v('description', 'Prose under the title: what the whole ask is about.'),
    v('submit_label', 'The label of the submit button.'),
    v('cancel_label', 'The label of the cancel button.'),
    v('is_cancellable', 'Whether the human may cancel.'),
    v('timeout_ms', 'How long to wait, in milliseconds: 5 minutes by default, 0 waits indefinitely.'),
  ]),
  vocab('live-option', 'The options of a `vis.live` view.', 'host', [
    v('description', 'Prose under the title.'),
    v('source', 'What the view reports on.'),
    v('session_id', 'The session to show it in.'),
    v('channel_ids', 'The channels to show it on.'),
    v('flush_ms', 'How long pushes may coalesce (100 ms by default).'),
  ]),
  vocab('form-node', 'The nodes of a `vis.ask` form that answer nothing: a layout group and the decorations.', 'host', [
    v('group', 'Lays out its fields in a column or a row.'),
    v('heading', 'A section title (text only).'),
    v('paragraph', 'Prose (text only).'),
  ]),
  vocab('ctx-reserved', 'Session-context keys an extension may not contribute: the prefixes Vis keeps (`session_env` is the sanctioned nested key).', 'host', [
    v('engine_', 'Engine fields.'),
    v('session_', 'Session fields (`session_env` aside).'),
  ]),
  vocab(
    'routing-verb',
    'The verbs `prompt.routing` names (`prompt.VERBS`); syntax checks are hooks, never verbs.',
    'sdk',
    ROUTING_VERBS.map((verb) => v(verb, ROUTING_VERB_DOCS[verb])),
  ),
  vocab('diagnostic-level', 'The level of a vis-lang-interface Diagnostic (`LEVELS`).', 'sdk', [v('error', 'An error.'), v('warning', 'A warning.'), v('info', 'Information.')]),
];

function apiStyleDoc(style: string): string {
  if (/anthropic|claude|^messages$/.test(style)) return 'The Anthropic Messages dialect.';
  if (/responses/.test(style)) return 'The OpenAI Responses dialect.';
  if (/gemini|google/.test(style)) return 'The Google Gemini dialect.';
  return 'The OpenAI Chat Completions dialect.';
}

const BY_ID = new Map(VOCABULARIES.map((x) => [x.id, x]));

export function vocabularyById(id: string): Vocabulary {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown SDK vocabulary ${id}`);
  return found;
}
