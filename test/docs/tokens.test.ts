import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { EXACT_CHARS, TOKEN_ENCODING, countTokens, countTokensCached, countTokensInSlices, loadTokenizer } from '../../server/src/docs/tokens';

// js-tiktoken, an independent implementation of the same encoding, as the reference.
const reference = new Tiktoken(o200k_base);
const referenceCount = (text: string) => reference.encode(text, [], []).length;

before(async () => {
  await loadTokenizer();
});

describe('countTokens (o200k_base)', () => {
  it('uses o200k_base', () => {
    assert.equal(TOKEN_ENCODING, 'o200k_base');
  });

  it('counts nothing in an empty string', () => {
    assert.equal(countTokens(''), 0);
  });

  it('matches the o200k_base counts documented for common examples', () => {
    // OpenAI's "How to count tokens with tiktoken" example, o200k_base: [83, 8251, 2488, 382, 2212, 0].
    assert.equal(countTokens('tiktoken is great!'), 6);
    // [24912, 2375]
    assert.equal(countTokens('hello world'), 2);
  });

  it('counts routing prompt text', () => {
    // Ids cross-checked with an independent o200k_base implementation (gpt-tokenizer).
    assert.equal(countTokens('clj surface active \u2014 Clojure through its own toolchain:'), 14);
    assert.equal(countTokens('  clj.format_code \u00b7 clj.run_tests'), 10);
    assert.equal(countTokens('\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440'), 3);
    assert.equal(countTokens('\u{1F600}'), 1);
  });

  it('counts special-token markers as plain text instead of throwing', () => {
    assert.equal(countTokens('<|endoftext|>'), 7);
  });

  it('agrees with js-tiktoken on generated text, long runs of one character included', () => {
    let seed = 11;
    const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    const alphabet = ['a', 'b', 'Z', ' ', '\n', '\t', '_', '0', '7', '.', '(', '"', "'s", '\u00e9', '\u2014', '\u4e2d', '\u{1F600}', '\ud800', 'def ', 'self.', '  '];
    for (let n = 0; n < 300; n++) {
      let text = '';
      const len = rnd(120);
      for (let i = 0; i < len; i++) text += alphabet[rnd(alphabet.length)].repeat(rnd(5) === 0 ? 1 + rnd(60) : 1);
      assert.equal(countTokens(text), referenceCount(text), JSON.stringify(text));
    }
    for (const run of ['a', 'ab', '7', ' ', '\u00e9', 'xyz', '\u4e2d', '-=']) {
      const text = run.repeat(400) + ' tail';
      assert.equal(countTokens(text), referenceCount(text), run);
    }
  });

  it('counts 30,000 identical characters (one piece) exactly', () => {
    // js-tiktoken's quadratic merge takes minutes on these (106 s and 127 s here, run once by hand);
    // these are its counts.
    assert.equal(countTokens('a'.repeat(30_000)), 3750);
    assert.equal(countTokens('ab'.repeat(15_000)), 7500);
    assert.equal(countTokens(' '.repeat(30_000)), 235);
    assert.equal(countTokens('a'.repeat(3000)), referenceCount('a'.repeat(3000)));
  });

  it('counts in slices exactly what it counts at once, yielding to the event loop inside one long piece', async () => {
    const texts = ['b'.repeat(30_000), 'Read the value.\n'.repeat(2000), `${'x'.repeat(20_000)} tail ${'é'.repeat(3000)}`];
    for (const text of texts) {
      let turns = 0;
      const timer = setInterval(() => turns++, 0);
      const n = await countTokensInSlices(text, 2);
      clearInterval(timer);
      assert.equal(n, countTokens(text), text.slice(0, 20));
      if (text.startsWith('b')) assert.ok(turns > 0, 'the event loop was served during one 30,000-character piece');
    }
  });

  it('estimates a text past EXACT_CHARS from its first EXACT_CHARS characters, in slices or not', async () => {
    const text = 'Read the value. '.repeat(10_000);
    const head = countTokens(text.slice(0, EXACT_CHARS));
    const estimate = Math.round((head * text.length) / EXACT_CHARS);
    assert.equal(countTokensCached(text), estimate);
    assert.equal(await countTokensInSlices(text + ' '), Math.round((head * (text.length + 1)) / EXACT_CHARS));
  });
});
