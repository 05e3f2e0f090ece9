// Token counts for model-facing text (docs previews, the routing prompt).
// Encoding: o200k_base, the newest tiktoken encoding (GPT-4o and later), through js-tiktoken's
// pure-JS "lite" build with only the o200k ranks imported, so esbuild bundles them and nothing is
// fetched at install or run time. The counts are an estimate for other vendors' models.
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';

export const TOKEN_ENCODING = 'o200k_base';

let encoder: Tiktoken | undefined;

/** Built on first use: decoding the bundled ranks takes a noticeable moment. */
export function getEncoder(): Tiktoken {
  return (encoder ??= new Tiktoken(o200k_base));
}

/** Tokens in `text`. Special-token markers such as `<|endoftext|>` count as the plain text they are. */
export function countTokens(text: string): number {
  if (text === '') return 0;
  return getEncoder().encode(text, [], []).length;
}

const CACHE_LIMIT = 20_000;
const cache = new Map<string, number>();

/**
 * `countTokens` with a bounded cache of recent texts: a preview regenerated after an edit counts only
 * the parts whose text changed. The least recently used entries go first.
 */
export function countTokensCached(text: string): number {
  const hit = cache.get(text);
  if (hit !== undefined) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const n = countTokens(text);
  cache.set(text, n);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return n;
}
