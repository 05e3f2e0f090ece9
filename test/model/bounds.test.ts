// What user input can make the analysis do, bounded: a literal of megabytes is read as one unknown
// value (not seconds of reading), a list of thousands of Symbols is still read whole, and chains that
// nest without brackets (unary operators, attributes, calls, conditionals, lambdas, power, names bound
// to names) never overflow the stack on the request paths (rules, Symbol analysis, contracts, the docs
// preview), and leave the declarations after them known.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { previewDocs } from '../../server/src/docs/preview';
import { loadTokenizer } from '../../server/src/docs/tokens';
import { contractToolDocSource } from '../../server/src/docs/toolDocs';
import { initParser } from '../../server/src/parse/parser';
import { Program } from '../../server/src/workspace/program';

const HEAD = 'import blockether.vis.extension as vis\n\n';
const TAIL = '\n\ndef hello(name: str) -> str:\n    """Say hello."""\n    return name\n\n\nvis.register_extension(vis.Extension(name="", description="d", alias="h", symbols=[vis.Symbol(hello)]))\n';

function program(text: string) {
  const uri = 'file:///tmp/vis-bounds/ext.py';
  const p = new Program({ open: (u) => (u === uri ? { version: 1, text } : undefined), maxFileSize: 10_000_000 });
  return { p, uri };
}

describe('bounded reading of values and chains', () => {
  before(async () => {
    await initParser();
    await loadTokenizer();
  });

  it('reads a 60,000-entry dict literal as one unknown value, and a list of 3,000 Symbols whole', () => {
    const data = HEAD + 'DATA = {\n' + Array.from({ length: 60_000 }, (_, i) => `    "k${i}": [${i}, "v"],\n`).join('') + '}\n' + TAIL;
    const a = program(data);
    const model = a.p.module(a.uri)!.model;
    const binding = model.bindings.get('DATA')![0];
    assert.equal(binding.kind === 'assign' && binding.value.kind, 'unknown');
    // The registration after it is read as before: its empty name is reported where it is.
    assert.deepEqual(a.p.analysis(a.uri)!.findings.filter((f) => f.severity === 'error').map((f) => [f.rule, f.range.start.line]), [['EXT-003', 60_011]]);

    const many = HEAD + Array.from({ length: 3000 }, (_, i) => `def t${i}(x: int) -> int:\n    """T."""\n    return x\n`).join('\n') +
      `\nvis.register_extension(vis.Extension(name="m", description="d", alias="m", symbols=[${Array.from({ length: 3000 }, (_, i) => `vis.Symbol(t${i})`).join(', ')}]))\n`;
    const b = program(many);
    assert.equal(b.p.symbols(b.uri).filter((s) => s.tools.length === 1).length, 3000);
  });

  it('never overflows the stack on chains without brackets, and keeps the registration after them', () => {
    const n = 50_000;
    const chains: Record<string, string> = {
      unary: `x = ${'-'.repeat(n)}1`,
      not: `x = ${'not '.repeat(n)}1`,
      attribute: `x = a${'.b'.repeat(n)}`,
      call: `x = f${'()'.repeat(n)}`,
      subscript: `x = a${'[0]'.repeat(n)}`,
      conditional: `x = 1${' if a else 1'.repeat(n)}`,
      lambda: `x = ${'lambda: '.repeat(n)}1`,
      power: `x = 2${' ** 2'.repeat(n)}`,
      sum: `x = 1${' + 1'.repeat(n)}`,
      names: `N0 = "x"\n${Array.from({ length: 20_000 }, (_, i) => `N${i + 1} = N${i}`).join('\n')}\nhello_doc = N20000`,
      annotation: `def g(a: "${'list['.repeat(5000)}int${']'.repeat(5000)}") -> int:\n    """G."""\n    return a`,
    };
    for (const [name, chain] of Object.entries(chains)) {
      const { p, uri } = program(HEAD + chain + TAIL);
      const a = p.analysis(uri)!;
      assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.rule), ['EXT-003'], name);
      const tools = p.symbols(uri).flatMap((s) => s.tools);
      assert.deepEqual(tools.map((t) => [t.name, JSON.stringify(t.contract).includes('"name"')]), [['hello', true]], name);
      const preview = previewDocs(a, { tools: contractToolDocSource(() => 'C3', () => p.symbols(uri)), routingVersion: 'current' });
      assert.match(preview.text, /## Tool hello: doc\(hello\)/, name);
    }
  });
});
