/**
 * The tokenizer behind every token figure: o200k_base (the BPE of GPT-4o and later OpenAI models), from
 * gpt-tokenizer's published rank file and split regex, counted by `BpeCounter` (bpe-counter.ts says why
 * not by the library's encoder). Loaded on first use only, so proxy mode, `tail` and every reader that
 * shows no token figure never pay for it. For Claude, Gemini and other models the figure is an estimate
 * (their tokenizers are not public or differ); docs/design.md.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { BpeCounter, buildRankTable } from './bpe-counter.js';

/** Counts tokens of text. Pure once loaded; the context fold takes it as an argument. */
export interface Tokenizer {
  /** What the figures were counted with, shown beside them. */
  readonly name: string;
  count(text: string): number;
}

/** The label readers print next to token figures. */
export const TOKENIZER_NAME = 'o200k_base';

let loading: Promise<Tokenizer> | undefined;

/** The o200k_base tokenizer, loaded once. Special-token text (`<|endoftext|>`) counts as plain text, as a host sends it. */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= (async () => {
    const ranksPath = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken');
    const [text, { O200K_TOKEN_SPLIT_REGEX }] = await Promise.all([readFile(ranksPath, 'latin1'), import('gpt-tokenizer/encodingParams/constants')]);
    const counter = new BpeCounter(buildRankTable(text), O200K_TOKEN_SPLIT_REGEX);
    return { name: TOKENIZER_NAME, count: (t: string) => counter.count(t) };
  })();
  return loading;
}
