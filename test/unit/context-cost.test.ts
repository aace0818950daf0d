/**
 * Context cost (issue 30): token figures from the real o200k_base tokenizer, checked by hand on small
 * texts; the figures of a session (definitions, listing totals, instructions, results, tools never
 * called, largest results) agree within a few percent with the tokenizer's own count of the whole
 * text; a result the log shortened is estimated from its size and lands close to the full count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { ContextCostBuilder, type ContextCost } from '../../src/lens/context/context-cost.js';
import { resultText, toolText, utf8Length } from '../../src/lens/context/model-text.js';
import { loadTokenizer, type Tokenizer } from '../../src/lens/context/tokenizer.js';
import type { LogRecord } from '../../src/log/record.js';
import { ROOT } from '../helpers/paths.js';

let tok: Tokenizer;
beforeAll(async () => {
  tok = await loadTokenizer();
});

let seq = 0;
const rec = (r: Partial<LogRecord>): LogRecord => ({ v: 1, time: 0, session: 's', seq: ++seq, from: 'server', kind: 'response', ...r });

/** Prose that is not one repeated phrase (a tokenizer's merge cache must not flatter the estimate). */
function prose(words: number, seed = 7): string {
  const vocab = ['the', 'server', 'returns', 'a', 'list', 'of', 'files', 'under', 'directory', 'with', 'sizes', 'and', 'modification', 'times', 'sorted', 'by', 'name', 'JSON', 'entries', 'permissions', '2026-01-01', 'kilobytes', 'owner', 'group', 'symlink', 'target'];
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(vocab[x % vocab.length]!);
    if (x % 11 === 0) out.push('.\n');
  }
  return out.join(' ');
}

describe('the tokenizer', () => {
  it('counts o200k_base tokens as checked by hand', () => {
    // Hello | , | ␣world | !
    expect(tok.count('Hello, world!')).toBe(4);
    // {" name ":" echo "," description ":" Echo es ␣back ␣the ␣input ." ," input Schema ":{" type ":" object "," properties ":{" message ":{" type ":" string "}} }}
    expect(tok.count(toolText({ name: 'echo', description: 'Echoes back the input.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } }))).toBe(29);
    expect(tok.name).toBe('o200k_base');
  });

  it('counts special-token text as plain text instead of throwing', () => {
    expect(tok.count('a <|endoftext|> b')).toBeGreaterThan(3);
  });
});

describe('ContextCostBuilder', () => {
  const tools = Array.from({ length: 8 }, (_, i) => ({
    name: `tool_${i}`,
    title: 'not sent to the model',
    description: prose(20 + i * 15, i + 1),
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: prose(10, i + 50) } }, required: ['path'] },
    annotations: { readOnlyHint: true },
  }));
  const instructions = prose(60, 99);
  let cost: ContextCost;
  // real prose: this repository's design notes, as a tool that reads files would return them
  const bigText = readFileSync(join(ROOT, 'docs', 'design.md'), 'utf8');

  beforeAll(() => {
    const b = new ContextCostBuilder('s', tok, 1000);
    b.add(rec({ method: 'initialize', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'x', version: '1' }, instructions } } }));
    b.add(rec({ method: 'tools/list', msg: { jsonrpc: '2.0', id: 1, result: { tools: tools.slice(0, 5), nextCursor: 'p2' } } }));
    b.add(rec({ method: 'tools/list', msg: { jsonrpc: '2.0', id: 2, result: { tools: tools.slice(5) } } }));
    b.add(rec({ from: 'client', kind: 'request', method: 'tools/call', target: 'tool_1' }));
    b.add(rec({ method: 'tools/call', target: 'tool_1', msg: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: prose(50, 5) }] } } }));
    b.add(rec({ from: 'client', kind: 'request', method: 'tools/call', target: 'tool_2' }));
    // the log keeps a shortened copy of this large result: strings cut, the line's real size in `bytes`
    const line = JSON.stringify({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: bigText }] } });
    const sh = jsonShortener(16 * 1024);
    sh.write(Buffer.from(line));
    b.add(rec({ method: 'tools/call', target: 'tool_2', truncated: true, bytes: Buffer.byteLength(line), msg: JSON.parse(sh.finish()!) }));
    b.add(rec({ method: 'tools/call', target: 'tool_2', msg: { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'image', data: 'A'.repeat(4000), mimeType: 'image/png' }] } } }));
    cost = b.finish();
  });

  it('measures each definition as the host sends it, and merges the pages of one listing', () => {
    expect(cost.tools!.count).toBe(8);
    for (const [i, t] of tools.entries()) {
      const text = JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema });
      expect(cost.tools!.items[i]).toEqual({ name: t.name, bytes: utf8Length(text), tokens: tok.count(text) });
    }
  });

  it('totals the tool list within 2% of the tokenizer count of the whole list as sent', () => {
    const whole = tok.count(JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))));
    expect(Math.abs(cost.tools!.total.tokens - whole) / whole).toBeLessThan(0.02);
    expect(cost.beforeFirstMessage).toBe(cost.tools!.total.tokens + tok.count(instructions));
    expect(cost.instructions).toEqual({ bytes: utf8Length(instructions), tokens: tok.count(instructions) });
  });

  it('names the tools never called, with what they cost', () => {
    expect(cost.neverCalled.map((d) => d.name)).toEqual(['tool_0', 'tool_3', 'tool_4', 'tool_5', 'tool_6', 'tool_7']);
  });

  it('estimates a shortened result within 10% of the full count from the kept head, and says it is an estimate', () => {
    const full = tok.count(bigText);
    const big = cost.largestResults[0]!;
    expect(big).toMatchObject({ tool: 'tool_2', estimated: true });
    expect(Math.abs(big.tokens - full) / full).toBeLessThan(0.1);
  });

  it('counts media in bytes only, and keeps per-tool totals and the results over the limit', () => {
    expect(cost.largestResults.find((r) => r.mediaBytes === 4000)).toMatchObject({ tokens: 0 });
    expect(cost.perTool.map((p) => [p.tool, p.calls])).toEqual([['tool_2', 2], ['tool_1', 1]]);
    expect(cost.overLimit).toMatchObject({ limit: 1000, count: 1 });
    expect(cost.overLimit!.first.map((r) => r.tool)).toEqual(['tool_2']);
  });

  it('reads structuredContent when there is no content, and resource text and links', () => {
    expect(resultText({ structuredContent: { a: 1 } }).text).toBe('{"a":1}');
    expect(resultText({ content: [{ type: 'resource', resource: { uri: 'u', text: 'hi' } }, { type: 'resource_link', uri: 'file:///x', name: 'x', _meta: { big: 1 } }] }).text).toBe('hi\n{"type":"resource_link","uri":"file:///x","name":"x"}');
  });

  it('past the exact budget, estimates results at their tool\'s rate within 3% and keeps the largest exact', () => {
    const lines = readFileSync(join(ROOT, 'docs', 'check.md'), 'utf8').split('\n').filter((l) => l.length > 40);
    const exactBudget = 16 * 1024;
    const b = new ContextCostBuilder('s', tok, undefined, exactBudget);
    let exact = 0;
    const texts: string[] = [];
    for (let i = 0; i < 400; i++) {
      const text = lines.slice(i % lines.length, (i % lines.length) + 1 + (i % 3)).join('\n') + (i === 333 ? `\n${lines.join('\n')}` : '');
      texts.push(text);
      exact += tok.count(text);
      b.add(rec({ method: 'tools/call', target: 'read', msg: { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text }] } } }));
    }
    const c = b.finish();
    expect(c.results.estimated).toBe(true);
    expect(c.perTool[0]).toMatchObject({ tool: 'read', calls: 400, estimated: true });
    expect(Math.abs(c.results.tokens - exact) / exact).toBeLessThan(0.03);
    // the one large result (seq of the 334th) is named with its exact count
    const big = c.largestResults[0]!;
    expect(big.tokens).toBe(tok.count(texts[333]!));
    expect(big.estimated).toBeUndefined();
  });
});
