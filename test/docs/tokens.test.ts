import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TOKEN_ENCODING, countTokens, getEncoder } from '../../server/src/docs/tokens';

describe('countTokens (o200k_base)', () => {
  it('uses o200k_base', () => {
    assert.equal(TOKEN_ENCODING, 'o200k_base');
  });

  it('counts nothing in an empty string', () => {
    assert.equal(countTokens(''), 0);
  });

  it('matches the o200k_base ids documented for common examples', () => {
    // OpenAI's "How to count tokens with tiktoken" example, o200k_base.
    assert.deepEqual(getEncoder().encode('tiktoken is great!'), [83, 8251, 2488, 382, 2212, 0]);
    assert.equal(countTokens('tiktoken is great!'), 6);
    assert.deepEqual(getEncoder().encode('hello world'), [24912, 2375]);
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
});
