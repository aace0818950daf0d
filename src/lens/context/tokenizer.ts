/**
 * The tokenizer behind every token figure: o200k_base (the BPE of GPT-4o and later OpenAI models) from
 * gpt-tokenizer. Loaded on first use only — it is 2.4 MB of ranks and ~200 ms to import — so proxy
 * mode, `tail` and every reader that shows no token figure never pay for it. For Claude, Gemini and
 * other models the figure is an estimate (their tokenizers are not public or differ); docs/design.md.
 */

/** Counts tokens of text. Pure once loaded; the context fold takes it as an argument. */
export interface Tokenizer {
  /** What the figures were counted with, shown beside them. */
  readonly name: string;
  count(text: string): number;
}

/** The label readers print next to token figures. */
export const TOKENIZER_NAME = 'o200k_base';

/** Entries of the tokenizer's merge cache (its default is 100,000). */
const MERGE_CACHE = 10_000;

let loading: Promise<Tokenizer> | undefined;

/** The o200k_base tokenizer, imported once. Special-token text (`<|endoftext|>`) counts as plain text, as a host sends it. */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    // the merge cache holds words already split; 100,000 by default costs tens of MB for little speed on logs
    m.setMergeCacheSize(MERGE_CACHE);
    const plain = { disallowedSpecial: new Set<string>() };
    return { name: TOKENIZER_NAME, count: (text: string) => (text.length === 0 ? 0 : m.countTokens(text, plain)) };
  });
  return loading;
}
