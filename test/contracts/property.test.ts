// Property tests of the contract engine: extension files whose annotations and defaults are random
// Python expressions (test/contracts/pygen.ts), in an entry file (the string path) and in a helper
// module without the __future__ import (the object path). Whatever the input, computing contracts,
// doc pages, hovers and the docs preview never throws, no part fails with an internal error, and the
// JSON keeps the SDK's shape. `npm test` runs a bounded count with a fixed seed; `npm run
// test:property` runs a long one (VIS_PROPERTY_RUNS, VIS_PROPERTY_SEED).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PyRandom } from '../changes/pyRandom';
import { symbolInfos, scopeOf, isNamespace, type CallableContract, type ContractFormat, type ModuleLoader, type SymbolInfo } from '../../server/src/contracts';
import { valueOfText } from '../../server/src/contracts/constants';
import { parseExpr, unparse } from '../../server/src/contracts/pyexpr';
import { previewDocs } from '../../server/src/docs/preview';
import { loadTokenizer } from '../../server/src/docs/tokens';
import { contractToolDocSource } from '../../server/src/docs/toolDocs';
import { contractResult, hoverMarkdown } from '../../server/src/features/contractHover';
import { initParser } from '../../server/src/parse/parser';
import { modelOf } from './helpers';
import { PRELUDE, PyGen } from './pygen';

const RUNS = Number(process.env.VIS_PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.VIS_PROPERTY_SEED ?? 11);

before(async () => {
  await initParser();
  await loadTokenizer();
});

const KINDS = ['plain', 'default', 'annotated', 'annotated-default'] as const;

/** A parameter list with every kind: positional-only, plain, *args, keyword-only, **kwargs. */
function params(g: PyGen, r: PyRandom): string {
  const out: string[] = [];
  let defaulted = false;
  const one = (name: string) => {
    let kind = r.choice(KINDS);
    // A parameter without a default may not follow one with a default (before `*`).
    if (defaulted && (kind === 'plain' || kind === 'annotated')) kind = kind === 'plain' ? 'default' : 'annotated-default';
    if (kind === 'default' || kind === 'annotated-default') defaulted = true;
    const ann = kind.startsWith('annotated') ? `: ${g.annotation()}` : '';
    const def = kind.endsWith('default') ? `${ann ? ' = ' : '='}${g.value()}` : '';
    return `${name}${ann}${def}`;
  };
  for (let i = r.randint(0, 1); i > 0; i--) out.push(one(`p${i}`));
  if (out.length && r.random() < 0.5) out.push('/');
  for (let i = r.randint(0, 2); i > 0; i--) out.push(one(`a${i}`));
  if (r.random() < 0.3) out.push(`*args: ${g.annotation()}`);
  else if (r.random() < 0.5) out.push('*');
  if (out[out.length - 1] === '*' || out[out.length - 1]?.startsWith('*args')) {
    defaulted = false;
    out.push(one('k'));
  }
  if (r.random() < 0.3) out.push(`**options${r.random() < 0.5 ? `: ${g.annotation()}` : ''}`);
  return out.join(', ');
}

function entryFile(g: PyGen, r: PyRandom): string {
  const lines = [r.random() < 0.7 ? 'from __future__ import annotations' : '# annotations as objects', PRELUDE, 'import blockether.vis.extension as vis', 'from .helper import HRec, hfn', ''];
  const symbols: string[] = [];
  for (let i = 0; i < 3; i++) {
    lines.push(`def f${i}(${params(g, r)}) -> ${g.annotation()}:`, `    """Tool ${i}."""`, '');
    symbols.push(`vis.Symbol(f${i})`);
  }
  const own = params(g, r);
  lines.push('class Kit:', '    """A kit."""', '', '    @vis.method(tag="mutation")', `    def put(self${own ? ', ' + own : ''}) -> ${g.annotation()}:`, '        """Put."""', '');
  lines.push(`    def get(self, key: ${g.annotation()} = ${g.value()}) -> ${g.annotation()}:`, '        """Get."""', '');
  symbols.push('vis.Symbol(Kit(), name="kit")', 'vis.Symbol(hfn, name="remote")', 'vis.Symbol(make())', 'vis.Symbol(**CONFIG)', 'helper_symbol');
  lines.push('helper_symbol = vis.Symbol(helper, name="h")');
  lines.push(`vis.register_extension(vis.Extension(name="t", description="T", alias="t", symbols=[${symbols.join(', ')}]))`, '');
  return lines.join('\n');
}

function helperFile(g: PyGen, r: PyRandom): string {
  const lines = [PRELUDE, '', '@dataclass', 'class HRec:', '    """A helper record."""'];
  for (let i = 0; i < 3; i++) lines.push(`    h${i}: ${g.annotation()}${r.random() < 0.5 ? ` = ${g.value()}` : ''}`);
  lines.push('', `def hfn(${params(g, r)}) -> HRec:`, '    """Helper tool."""', '');
  return lines.join('\n');
}

const PARAM_KEYS = (format: ContractFormat) => ['name', 'kind', 'required', 'has_default', 'default_is_none', ...(format === 'C3' ? ['default_source'] : []), 'type'];

function checkCallable(c: CallableContract, format: ContractFormat): void {
  assert.deepEqual(Object.keys(c), ['version', 'name', 'tag', 'description', 'signature', 'parameters', 'returns']);
  assert.equal(typeof c.signature, 'string');
  for (const p of c.parameters) {
    assert.deepEqual(Object.keys(p), PARAM_KEYS(format));
    if (format === 'C3') assert.ok(p.default_source === null || typeof p.default_source === 'string');
    assert.ok(p.type && typeof p.type.kind === 'string');
  }
  assert.deepEqual(JSON.parse(JSON.stringify(c)), c);
}

function noInternalError(where: string, reasons: { where: string; reason: string }[]): void {
  const bad = reasons.filter((u) => /internal error/.test(u.reason));
  assert.deepEqual(bad, [], `${where}: ${JSON.stringify(bad)}`);
}

function exercise(entry: string, helper: string): void {
  const helperScope = scopeOf(modelOf(helper, 'file:///w/helper.py'), { path: '/w/helper.py' });
  const loader: ModuleLoader = { load: (_from, name) => (name === '.helper' || name === 'helper' ? helperScope : undefined) };
  const model = modelOf(entry, 'file:///w/extension.py');
  for (const format of ['C1', 'C2', 'C3'] as const) {
    const infos: SymbolInfo[] = symbolInfos(model, { format, loader, path: '/w/extension.py' });
    for (const info of infos) {
      noInternalError('symbol', info.unknownTools);
      if (info.contract) {
        if (isNamespace(info.contract)) info.contract.members.forEach((m) => checkCallable(m, format));
        else checkCallable(info.contract, format);
      }
      for (const tool of info.tools) {
        checkCallable(tool.contract, format);
        assert.equal(typeof tool.doc, 'string');
        noInternalError(tool.name, tool.unknowns);
        assert.equal(typeof hoverMarkdown({ info, tool }, format), 'string');
      }
      hoverMarkdown({ info }, format);
      contractResult({ info });
    }
    const preview = previewDocs({ model }, { tools: contractToolDocSource(() => format, () => infos), routingVersion: 'current' });
    assert.ok(preview.text.startsWith('# Model-facing docs of t'), preview.text.slice(0, 80));
  }
}

describe(`contract engine properties (${RUNS} files, seed ${SEED})`, () => {
  it('never throws on random annotations and defaults, and keeps the contract shape', () => {
    const r = new PyRandom(SEED);
    const g = new PyGen(r);
    for (let i = 0; i < RUNS; i++) {
      const entry = entryFile(g, r);
      const helper = helperFile(g, r);
      try {
        exercise(entry, helper);
      } catch (e) {
        assert.fail(`run ${i} (seed ${SEED}) failed: ${e instanceof Error ? e.stack : e}\n--- extension.py\n${entry}\n--- helper.py\n${helper}`);
      }
    }
  });

  it('unparses what it parses to a fixed point, and evaluates every default without throwing', () => {
    const r = new PyRandom(SEED + 1);
    const g = new PyGen(r);
    const scope = scopeOf(modelOf(PRELUDE), {});
    for (let i = 0; i < RUNS * 20; i++) {
      for (const text of [g.annotation(), g.value()]) {
        const e = parseExpr(text);
        if (e) {
          const once = unparse(e);
          const again = parseExpr(once);
          assert.ok(again, `unparse(${JSON.stringify(text)}) = ${JSON.stringify(once)} does not parse`);
          assert.equal(unparse(again), once, `unparse is not stable for ${JSON.stringify(text)}`);
        }
        const v = valueOfText(text, scope, {});
        assert.ok(v && typeof v.t === 'string');
      }
    }
  });
});

export { entryFile, helperFile };
