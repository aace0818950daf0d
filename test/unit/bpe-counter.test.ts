/**
 * The token counter behind every token figure counts exactly what gpt-tokenizer's own o200k_base encoder
 * counts — on this repository's docs and sources, the fixture logs, scripts of many languages, emoji,
 * invisible characters, long runs and random text — but for a byte-order mark, where the library's
 * encoder loses the token its own rank file has — and refuses a rank file line without a rank.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { buildRankTable, BpeCounter, rankOf } from '../../src/lens/context/bpe-counter.js';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import { ROOT } from '../helpers/paths.js';

const library = (text: string): number => countTokens(text, { disallowedSpecial: new Set() });

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** Random strings from a few planes, seeded (a failure can be replayed). */
function randomTexts(n: number, seed: number): string[] {
  let x = seed;
  const next = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0);
  const ranges = [[0x20, 0x7e], [0x80, 0x24f], [0x370, 0x6ff], [0x3040, 0x30ff], [0x4e00, 0x4fff], [0x1f300, 0x1f64f], [0xe0020, 0xe007f], [0x200b, 0x206f]] as const;
  return Array.from({ length: n }, () => {
    let s = '';
    const len = next() % 120;
    for (let i = 0; i < len; i++) {
      const [lo, hi] = ranges[next() % (next() % 3 === 0 ? ranges.length : 2)]!;
      s += String.fromCodePoint(lo + (next() % (hi - lo + 1)));
      if (next() % 7 === 0) s += ' \n\t'[next() % 3];
    }
    return s;
  });
}

describe('the o200k_base token counter', () => {
  it('counts what gpt-tokenizer counts, text by text', async () => {
    const tok = await loadTokenizer();
    const texts = [
      ...filesUnder(join(ROOT, 'docs'), /\.md$/).map((f) => readFileSync(f, 'utf8')),
      ...filesUnder(join(ROOT, 'src', 'lens'), /\.ts$/).map((f) => readFileSync(f, 'utf8')),
      ...filesUnder(join(ROOT, 'test', 'fixtures', 'logs'), /\.(jsonl|log)$/).map((f) => readFileSync(f, 'utf8').slice(0, 200_000)),
      '',
      ' ',
      'Hello, world!',
      'a <|endoftext|> b <|im_start|>',
      'x'.repeat(5000),
      '1234567890'.repeat(50),
      'Ünïcödé — “quotes” … naïve café',
      'Привет, мир! مرحبا بالعالم שלום עולם',
      '日本語のテキストと中文文本와 한국어',
      '👩‍👩‍👧‍👦 🏳️‍🌈 🇩🇪 e\u0301\u0327',
      'read\u200b\u200c\u200dme\u2060 \u202eevil\u202c \udb40\udc49\udb40\udc47',
      'line one\r\nline two\n\n\n   indented\t\ttabs   ',
      "don't we'll they're I'M YOU'LL",
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}',
      ...randomTexts(3000, 42),
    ];
    const differ = texts.filter((t) => tok.count(t) !== library(t));
    expect(differ.map((t) => JSON.stringify(t.slice(0, 60)))).toEqual([]);
    expect(texts.length).toBeGreaterThan(3000);
  });

  it('counts a byte-order mark as the one token the rank file has for it', async () => {
    // o200k_base.tiktoken: `77u/ 5574`, the bytes EF BB BF; gpt-tokenizer's encoder decodes them with a
    // TextDecoder that drops a BOM, so it misses the token and counts two
    const tok = await loadTokenizer();
    expect(readFileSync(join(ROOT, 'node_modules', 'gpt-tokenizer', 'data', 'o200k_base.tiktoken'), 'latin1')).toMatch(/^77u\/ 5574$/m);
    expect(tok.count('\ufeff')).toBe(1);
    // `77u/77u/ 135153`: two marks in a row are one token too
    expect(tok.count('\ufeff\ufeff')).toBe(1);
  });

  it('finds each rank of a table by its bytes, and nothing else', () => {
    // "a" 0, "b" 1, "ab" 2, "\xff" 3 (not UTF-8)
    const t = buildRankTable('YQ== 0\nYg== 1\nYWI= 2\n/w== 3\n');
    const b = new Uint8Array([0x61, 0x62, 0xff, 0x63]);
    expect([rankOf(t, b, 0, 1), rankOf(t, b, 1, 2), rankOf(t, b, 0, 2), rankOf(t, b, 2, 3), rankOf(t, b, 3, 4), rankOf(t, b, 0, 3)]).toEqual([0, 1, 2, 3, -1, -1]);
    // "ab" merges into one token, "ba" stays two
    expect(new BpeCounter(t, /[a-z]+/gu).count('ab ba')).toBe(3);
  });

  it('refuses a rank file line without a rank', () => {
    expect(() => buildRankTable('YQ== 0\nYg==\n')).toThrow(/line 2 has no rank/);
  });
});
