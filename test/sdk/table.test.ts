// The SDK signature table: members per module and release, parameters by position and keyword, Python's
// binding, vocabularies per release, and the differences between versions the spec names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Call } from '../../server/src/model/types';
import {
  ANY_RELEASE,
  acceptedKeywords,
  bindCall,
  describeReleases,
  editDistance,
  nearMember,
  parameterAt,
  paramsOf,
  pythonCallName,
  release,
  resolveReleaseSet,
  sdkMember,
  sdkMemberByQualified,
  sdkMembers,
  sdkModules,
  signatureText,
  vocabularyIn,
  vocabularyValues,
  type ReleaseScope,
} from '../../server/src/sdk';

const at = (...ids: string[]): ReleaseScope => ({ checked: ids.map(release) });
const TYPED = 'blockether.vis.extension';
const NEWEST_G3 = at('f3ef1e26');
const NEWEST_G2 = at('00b3a0c1');
const G1 = at('vis-0.1.41');

/** A call with the given arguments (values and ranges do not matter to binding). */
function call(args: ({ name?: string; splat?: '*' | '**' } | string)[]): Call {
  const r = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  return {
    callee: 'f',
    calleeRange: r,
    range: r,
    argsRange: r,
    args: args.map((a) => {
      const spec = typeof a === 'string' ? { name: undefined, text: a } : { ...a, text: a.name ?? '*' };
      return { name: spec.name, splat: 'splat' in spec ? spec.splat : undefined, value: { kind: 'unknown', range: r, text: spec.text }, range: r };
    }),
  };
}

describe('SDK table: members and parameters', () => {
  it('parses every signature of every member (signatures are parsed when first asked for, so a table error shows here)', () => {
    let members = 0;
    let params = 0;
    const visit = (m: { paramsIn(r: undefined): readonly unknown[]; keywordReleases(): ReadonlyMap<string, unknown>; members: ReadonlyMap<string, any> }) => {
      members++;
      params += m.paramsIn(undefined).length;
      m.keywordReleases();
      for (const c of m.members.values()) visit(c);
    };
    for (const mod of sdkModules()) for (const m of mod.members.values()) visit(m);
    assert.ok(members > 100, `${members} members`);
    assert.ok(params > 300, `${params} parameters`);
  });

  it('describes vis.Symbol with kinds, types, defaults and the tag vocabulary', () => {
    const symbol = sdkMember(NEWEST_G3, TYPED, 'Symbol')!;
    assert.equal(symbol.kind, 'class');
    assert.equal(symbol.qualified, 'blockether.vis.extension.Symbol');
    assert.match(symbol.doc, /^Makes a function a tool/);
    assert.deepEqual(
      paramsOf(symbol, NEWEST_G3).map((p) => [p.name, p.kind, p.type, p.default, p.required, p.vocabulary ?? null]),
      [
        ['fn', 'positional_or_keyword', 'Callable[..., Any] | object', undefined, true, null],
        ['name', 'positional_or_keyword', 'str | None', 'None', false, null],
        ['tag', 'positional_or_keyword', 'SymbolTag', '"observation"', false, 'tag'],
        ['is_hidden', 'positional_or_keyword', 'bool', 'False', false, null],
        ['activity', 'positional_or_keyword', 'Activity | None', 'None', false, null],
      ],
    );
    assert.equal(signatureText(symbol, paramsOf(symbol, NEWEST_G3)), 'Symbol(fn: Callable[..., Any] | object, name: str | None = None, tag: SymbolTag = "observation", is_hidden: bool = False, activity: Activity | None = None)');
  });

  it('keeps keyword-only and positional-only parameters apart', () => {
    const method = sdkMember(NEWEST_G3, TYPED, 'method')!;
    assert.deepEqual(paramsOf(method, NEWEST_G3).map((p) => `${p.name}:${p.kind}`), ['fn:positional_or_keyword', 'tag:keyword_only', 'is_hidden:keyword_only', 'activity:keyword_only']);
    assert.equal(signatureText(method, paramsOf(method, NEWEST_G3)), 'method(fn: Any = None, *, tag: SymbolTag = "observation", is_hidden: bool = False, activity: Activity | None = None)');
    const update = sdkMember(G1, 'vis', 'state.update')!;
    assert.deepEqual(paramsOf(update, G1).map((p) => `${p.name}:${p.kind}`), ['other:positional_only', 'values:var_keyword']);
    assert.equal(signatureText(update, paramsOf(update, G1)), 'update(other=(), /, **values)');
  });

  it('finds a parameter by position or keyword as Python binds it', () => {
    const params = paramsOf(sdkMember(NEWEST_G3, TYPED, 'method')!, NEWEST_G3);
    assert.equal(parameterAt(params, { position: 0 })?.name, 'fn');
    assert.equal(parameterAt(params, { position: 1 }), undefined, 'tag is keyword-only');
    assert.equal(parameterAt(params, { keyword: 'tag' })?.name, 'tag');
    const ask = paramsOf(sdkMember(NEWEST_G3, TYPED, 'ask')!, NEWEST_G3);
    assert.equal(parameterAt(ask, { keyword: 'timeout_ms' })?.name, 'options', 'an unknown keyword goes to **options');
    const row = paramsOf(sdkMember(NEWEST_G3, TYPED, 'row')!, NEWEST_G3);
    assert.equal(parameterAt(row, { position: 5 })?.name, 'fields', 'extra positionals go to *fields');
  });

  it('binds a call: positionals in order, then keywords; splats make it unknowable', () => {
    const params = paramsOf(sdkMember(NEWEST_G3, TYPED, 'OpHook')!, NEWEST_G3);
    assert.deepEqual([...bindCall(params, call(['["patch"]', 'guard', { name: 'phase' }]))!.keys()], ['ops', 'fn', 'phase']);
    assert.equal(bindCall(params, call(['x', { splat: '*' }])), undefined);
  });

  it('names the callable as Python does in its TypeErrors', () => {
    assert.equal(pythonCallName(sdkMember(NEWEST_G3, TYPED, 'Extension')!), 'Extension.__init__()');
    assert.equal(pythonCallName(sdkMember(G1, 'vis', 'symbol')!), 'symbol()');
  });

  it('resolves fully qualified names, attributes included', () => {
    assert.equal(sdkMemberByQualified(NEWEST_G3, 'blockether.vis.extension.council.wake')?.name, 'council.wake');
    assert.equal(sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.prompt.routing')?.module, 'vis_lang_interface.prompt');
    assert.equal(sdkMemberByQualified(ANY_RELEASE, 'vis.state.get')?.doc, 'Reads one key, or `default` when it is absent (a stored None counts as absent).');
  });
});

describe('SDK table: versions', () => {
  it('G1 vis.symbol takes hidden= before Vis 0.1.41 and is_hidden= from it', () => {
    const early = at('g1-docs');
    assert.deepEqual(paramsOf(sdkMember(early, 'vis', 'symbol')!, early).map((p) => p.name), ['fn', 'name', 'tag', 'hidden']);
    assert.deepEqual(paramsOf(sdkMember(G1, 'vis', 'symbol')!, G1).map((p) => p.name), ['fn', 'name', 'tag', 'is_hidden']);
    assert.deepEqual([...acceptedKeywords(sdkMember(at('g1-docs', 'vis-0.1.41'), 'vis', 'symbol')!, at('g1-docs', 'vis-0.1.41'))].sort(), ['fn', 'hidden', 'is_hidden', 'name', 'tag']);
  });

  it('the registration function is register in G2 and register_extension in G3, never both', () => {
    assert.ok(sdkMember(NEWEST_G2, TYPED, 'register'));
    assert.equal(sdkMember(NEWEST_G2, TYPED, 'register_extension'), undefined);
    assert.ok(sdkMember(NEWEST_G3, TYPED, 'register_extension'));
    assert.equal(sdkMember(NEWEST_G3, TYPED, 'register'), undefined);
    assert.equal(sdkMember(NEWEST_G2, TYPED, 'sequence'), undefined, 'vis.sequence is G3');
  });

  it('Extension fields: language_tools only in @1a8b6ead (LS), settings from @fb4b47f0 (ST)', () => {
    const fields = (id: string) => paramsOf(sdkMember(at(id), TYPED, 'Extension')!, at(id)).map((p) => p.name);
    assert.ok(fields('1a8b6ead').includes('language_tools'));
    assert.ok(!fields('1a8b6ead').includes('settings'));
    assert.ok(fields('f3ef1e26').includes('settings'));
    assert.ok(!fields('f3ef1e26').includes('language_tools'));
    assert.ok(!fields('00b3a0c1').includes('settings'));
    assert.deepEqual(
      paramsOf(sdkMember(NEWEST_G3, TYPED, 'Extension')!, NEWEST_G3).filter((p) => p.holds).map((p) => `${p.name}:${p.holds}`),
      ['symbols:Symbol', 'slash_commands:SlashCommand', 'op_hooks:OpHook', 'providers:Provider', 'network_filters:NetworkFilter', 'settings:Setting'],
    );
    assert.ok(paramsOf(sdkMember(NEWEST_G3, TYPED, 'Extension')!, NEWEST_G3).every((p) => p.kind === 'keyword_only'));
  });

  it('vis.block takes hint= from @fb4b47f0; Setting.parent only in @f3ef1e26; jailed_shell_session ends at @1a8b6ead', () => {
    assert.deepEqual(paramsOf(sdkMember(at('1a8b6ead'), TYPED, 'block')!, at('1a8b6ead')).map((p) => p.name), ['reason']);
    assert.deepEqual(paramsOf(sdkMember(NEWEST_G3, TYPED, 'block')!, NEWEST_G3).map((p) => p.name), ['reason', 'hint']);
    assert.ok(paramsOf(sdkMember(NEWEST_G3, TYPED, 'Setting')!, NEWEST_G3).some((p) => p.name === 'parent'));
    assert.ok(!paramsOf(sdkMember(at('fb4b47f0'), TYPED, 'Setting')!, at('fb4b47f0')).some((p) => p.name === 'parent'));
    assert.ok(sdkMember(at('1a8b6ead'), TYPED, 'jailed_shell_session'));
    assert.equal(sdkMember(NEWEST_G3, TYPED, 'jailed_shell_session'), undefined);
  });

  it('tags: T2 up to @1a8b6ead, T4 from @fb4b47f0; G1 has the two tags', () => {
    assert.deepEqual(vocabularyValues('tag', at('1a8b6ead')), ['observation', 'mutation']);
    assert.deepEqual(vocabularyValues('tag', NEWEST_G3), ['observation', 'mutation', 'verification', 'external']);
    assert.deepEqual(vocabularyValues('tag', G1), ['observation', 'mutation']);
    assert.equal(vocabularyIn('tag', NEWEST_G3).vocabulary.checkedBy, 'sdk');
  });

  it('op names: the G3 documented ones with the draft/* ops and the fs_access gate; the older names only in the G1 docs before Vis 0.1.41', () => {
    assert.deepEqual(vocabularyValues('op', NEWEST_G3), ['patch', 'shell', 'python_execution', 'draft/create', 'draft/approve', 'draft/discard', 'git/commit', 'fs_access', 'grep']);
    assert.deepEqual(vocabularyValues('op', G1).slice(8), ['grep']);
    assert.deepEqual(vocabularyValues('op', at('g1-docs')).slice(8), ['write', 'struct_patch', 'move', 'copy', 'delete', 'grep']);
  });

  it('other closed vocabularies: presenters, levels, routing verbs, setting kinds, api_style', () => {
    assert.deepEqual(vocabularyValues('log-level'), ['trace', 'debug', 'info', 'warn', 'error']);
    assert.deepEqual(vocabularyValues('notify-level'), ['info', 'success', 'warn', 'error']);
    assert.deepEqual(vocabularyValues('presenter'), ['generic', 'shell', 'tests', 'patch', 'observation', 'lint', 'repl', 'format', 'list']);
    assert.deepEqual(vocabularyValues('routing-verb'), ['format_code', 'lint_code', 'run_tests', 'build', 'repl_start', 'repl_status', 'repl_connect', 'repl_eval', 'repl_stop']);
    assert.deepEqual(vocabularyValues('setting-type'), ['boolean', 'enum']);
    assert.equal(vocabularyValues('api-style').length, 24);
    const activity = paramsOf(sdkMember(NEWEST_G3, TYPED, 'Activity')!, NEWEST_G3);
    assert.equal(activity.find((p) => p.name === 'presenter')?.vocabulary, 'presenter');
    const log = paramsOf(sdkMember(G1, 'vis', 'log')!, G1);
    assert.equal(log[0].vocabulary, 'log-level');
    const routing = paramsOf(sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.prompt.routing')!, ANY_RELEASE);
    assert.deepEqual(routing.map((p) => `${p.name}:${p.kind}`), ['language:positional_or_keyword', 'alias:positional_or_keyword', 'verbs:positional_or_keyword', 'notes:keyword_only']);
  });

  it('members of a module for a profile leave out what that version lacks and the module internals', () => {
    const g2 = sdkMembers(NEWEST_G2, TYPED).map((m) => m.name);
    const g3 = sdkMembers(NEWEST_G3, TYPED).map((m) => m.name);
    assert.ok(g2.includes('register') && !g2.includes('register_extension') && !g2.includes('sequence') && !g2.includes('Setting'));
    assert.ok(g3.includes('register_extension') && g3.includes('sequence') && g3.includes('Setting') && g3.includes('tools'));
    assert.ok(!g3.includes('dataclass'), 'imported helpers are not API');
    const g1 = sdkMembers(G1, 'vis').map((m) => m.name);
    assert.ok(g1.includes('extension') && g1.includes('symbol') && g1.includes('state') && !g1.includes('Symbol'));
  });

  it('the vis-lang-interface members the spec gives', () => {
    const guard = sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.syntax.SyntaxGuard')!;
    const params = paramsOf(guard, ANY_RELEASE);
    assert.deepEqual(params.map((p) => p.name), ['language', 'suffixes', 'check', 'repair', 'most_files', 'workspace_root', 'state']);
    assert.equal(params.find((p) => p.name === 'repair')?.since, '2.7.0');
    const diagnostic = paramsOf(sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.Diagnostic')!, ANY_RELEASE);
    assert.equal(diagnostic.find((p) => p.name === 'level')?.vocabulary, 'diagnostic-level');
    assert.deepEqual(vocabularyValues('diagnostic-level'), ['error', 'warning', 'info']);
    assert.ok(sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.results.FormatResult'));
    assert.ok(sdkMemberByQualified(ANY_RELEASE, 'vis_lang_interface.SyntaxResult.of'));
  });
});

describe('SDK table: release sets and typos', () => {
  it('describes a set of releases in words', () => {
    assert.equal(describeReleases(resolveReleaseSet({ gen: ['G2'] })), 'G2');
    assert.equal(describeReleases(resolveReleaseSet({ from: 'fb4b47f0' })), 'G3 from extension.py @fb4b47f0 on');
    assert.equal(describeReleases(resolveReleaseSet({ only: ['1a8b6ead'] })), 'only extension.py @1a8b6ead (G3)');
    assert.equal(describeReleases(resolveReleaseSet({ to: '1a8b6ead' })), 'G2 and G3 up to extension.py @1a8b6ead');
  });

  it('finds the one member a typo is near', () => {
    assert.equal(editDistance('Symbl', 'Symbol'), 1);
    assert.equal(editDistance('symbol', 'Symbol'), 1);
    assert.equal(nearMember(TYPED, 'Symbl')?.name, 'Symbol');
    assert.equal(nearMember(TYPED, 'Extention')?.name, 'Extension');
    assert.equal(nearMember(TYPED, 'frobnicate'), undefined);
  });
});
