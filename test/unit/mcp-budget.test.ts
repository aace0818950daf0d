/**
 * The answer budget of `mcp-tap mcp` (issue 32 §3): no answer of any tool or resource goes over it,
 * whatever the session holds (many records, one huge record, many sessions); what is cut goes on with
 * a cursor and the pages together give everything; a cursor works only for the question it was given
 * for; one item that alone does not fit is an error that says how to ask for less.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { decodeCursor, encodeCursor, estimateTokens, fitList, OverBudget, resultTokens, stableJson } from '../../src/mcp/budget.js';
import { pages } from '../../src/mcp/resources.js';
import { errorText, memoryClient, ok, type MemoryClient } from '../helpers/mcp-memory.js';
import { tempDir } from '../helpers/paths.js';
import { syntheticSession } from '../helpers/synthetic-session.js';

const MAX = 2000;
const box = tempDir('mcp-tap-mcp-budget-');
let m: MemoryClient;
const RECORDS = syntheticSession(1200, 7);

beforeAll(async () => {
  writeFileSync(join(box.dir, 'busy.jsonrpc.log'), RECORDS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // one record of 1 MiB (a huge tool result) and its request
  const big = 'x'.repeat(1024 * 1024);
  const huge = [
    { v: 1, time: 1_767_300_000_000, session: 'huge-1', seq: 1, from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'dump', msg: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'dump', arguments: {} } } },
    { v: 1, time: 1_767_300_000_010, session: 'huge-1', seq: 2, from: 'server', kind: 'response', id: 1, method: 'tools/call', target: 'dump', reqSeq: 1, ms: 10, msg: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: big }, { type: 'text', text: 'tail' }] } } },
  ];
  // 400 short sessions, so the session list is longer than one answer
  const many = Array.from({ length: 400 }, (_, i) => ({ v: 1, time: 1_767_200_000_000 + i * 1000, session: `many-${String(i).padStart(3, '0')}`, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: `server-with-a-long-name-${i}`, command: 'node', args: ['server.js'] }));
  writeFileSync(join(box.dir, 'huge.jsonrpc.log'), huge.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(join(box.dir, 'many.jsonrpc.log'), many.map((r) => JSON.stringify(r)).join('\n') + '\n');
  m = await memoryClient({ dir: box.dir }, { maxTokens: MAX });
});
afterAll(async () => {
  await m.close();
  box.cleanup();
});

const under = (r: CallToolResult) => expect(resultTokens(r)).toBeLessThanOrEqual(MAX);

describe('the answer budget', () => {
  it('search_messages pages through a busy session: each page under the budget, all pages every match once', async () => {
    const seqs: number[] = [];
    let cursor: string | undefined;
    let pagesRead = 0;
    do {
      const r = await m.call('search_messages', { session: 'synthetic-7', limit: 200, ...(cursor ? { cursor } : {}) });
      under(r);
      const page = ok<{ matches: Array<{ seq: number }>; nextCursor?: string; complete: boolean }>(r);
      expect(page.complete).toBe(page.nextCursor === undefined);
      seqs.push(...page.matches.map((x) => x.seq));
      cursor = page.nextCursor;
      pagesRead++;
    } while (cursor !== undefined && pagesRead < 500);
    expect(pagesRead).toBeGreaterThan(15); // 200 asked for, fewer fit
    expect(seqs).toEqual(RECORDS.map((r) => r.seq));
  });

  it('list_sessions pages through 400 sessions', async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const r = await m.call('list_sessions', { limit: 200, ...(cursor ? { cursor } : {}) });
      under(r);
      const page = ok<{ sessions: Array<{ id: string }>; total: number; nextCursor?: string }>(r);
      expect(page.total).toBe(402);
      ids.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(new Set(ids).size).toBe(402);
  });

  it('get_message shortens a 1 MiB body to fit, keeping its shape, and says so', async () => {
    const r = await m.call('get_message', { session: 'huge-1', seq: 2 });
    under(r);
    const msg = ok<{ message: { shortened?: boolean; body: { result: { content: Array<{ text: string }> } } }; request: unknown }>(r);
    expect(msg.message.shortened).toBe(true);
    expect(msg.message.body.result.content[0]!.text).toMatch(/^x+…\[truncated: \d+ bytes\]$/);
    expect(msg.request).toBeDefined();
  });

  it('a resource longer than the budget comes in pages, each pointing at the next', async () => {
    const first = await m.read('mcp-tap://session/synthetic-7');
    const text = (first.contents[0] as { text: string }).text;
    expect(estimateTokens(JSON.stringify(first).length)).toBeLessThanOrEqual(MAX);
    const next = /the transcript goes on at (mcp-tap:\/\/session\/synthetic-7\?page=2)/.exec(text);
    expect(next).not.toBeNull();
    const second = await m.read(next![1]!);
    expect(estimateTokens(JSON.stringify(second).length)).toBeLessThanOrEqual(MAX);
    await expect(m.read('mcp-tap://session/synthetic-7?page=99999')).rejects.toThrow(/has \d+ pages/);
  });

  it('every tool stays under the budget on the busy session', async () => {
    for (const [name, args] of [
      ['get_session', { session: 'synthetic-7' }],
      ['session_stats', { session: 'synthetic-7' }],
      ['check_session', { session: 'synthetic-7', limit: 500 }],
      ['diff_sessions', { a: 'synthetic-7', b: 'huge-1', limit: 500 }],
    ] as const) {
      const r = await m.call(name, args);
      under(r);
      expect(r.isError, `${name}: ${JSON.stringify(r.content).slice(0, 200)}`).toBeFalsy();
    }
  });

  it('an answer that cannot be cut (a session header longer than the budget) is an error saying how to read on, never an oversized answer', async () => {
    const wide = tempDir('mcp-tap-mcp-wide-');
    // a server started with a command line of ~22,000 characters: get_session's header holds it whole
    const args = Array.from({ length: 400 }, (_, i) => `--option-${i}=${'v'.repeat(40)}`);
    writeFileSync(join(wide.dir, 'wide.jsonrpc.log'), `${JSON.stringify({ v: 1, time: 1_767_400_000_000, session: 'wide-1', seq: 1, from: 'proxy', kind: 'event', event: 'start', name: 'wide', command: 'node', args })}\n`);
    const w = await memoryClient({ dir: wide.dir }, { maxTokens: MAX });
    try {
      const r = await w.call('get_session', { session: 'wide-1' });
      under(r);
      expect(r.isError).toBe(true);
      expect(errorText(r)).toBe('this answer is larger than the 2000-token answer budget; search_messages and get_message read the session piece by piece');
    } finally {
      await w.close();
      wide.cleanup();
    }
  });

  it('a cursor is refused for other arguments, another tool, or when it is not one', async () => {
    const page = ok<{ nextCursor: string }>(await m.call('search_messages', { session: 'synthetic-7', limit: 5 }));
    expect(errorText(await m.call('search_messages', { session: 'synthetic-7', errors: true, cursor: page.nextCursor }))).toMatch(/cursor belongs to other arguments/);
    expect(errorText(await m.call('list_sessions', { cursor: page.nextCursor }))).toMatch(/cursor belongs to another tool/);
    expect(errorText(await m.call('list_sessions', { cursor: 'not a cursor!' }))).toMatch(/cursor is not one this server gave/);
    // another page size is the same question
    expect(ok<{ matches: unknown[] }>(await m.call('search_messages', { session: 'synthetic-7', limit: 7, cursor: page.nextCursor })).matches).toHaveLength(7);
  });
});

describe('budget, pure', () => {
  it('fitList keeps the longest prefix that fits and points the cursor after it', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ i, pad: 'y'.repeat(50) }));
    const r = fitList({ items, offset: 10, more: false }, (xs, next) => ({ xs, ...(next ? { next } : {}) }), (o) => `at-${o}`, 600, 'ask for less');
    expect(resultTokens(r)).toBeLessThanOrEqual(600);
    const got = r.structuredContent as { xs: Array<{ i: number }>; next: string };
    expect(got.xs.length).toBeGreaterThan(1);
    // one more would not fit
    const more = { content: [{ type: 'text' as const, text: JSON.stringify({ xs: items.slice(0, got.xs.length + 1), next: 'x' }) }], structuredContent: { xs: items.slice(0, got.xs.length + 1), next: 'x' } };
    expect(resultTokens(more)).toBeGreaterThan(600);
    expect(got.next).toBe(`at-${10 + got.xs.length}`);
  });

  it('fitList: one item over the budget is OverBudget with the hint', () => {
    expect(() => fitList({ items: ['z'.repeat(10_000)], offset: 0, more: false }, (xs) => ({ xs }), () => 'c', 1000, 'pass a smaller limit')).toThrow(OverBudget);
    expect(() => fitList({ items: ['z'.repeat(10_000)], offset: 0, more: false }, (xs) => ({ xs }), () => 'c', 1000, 'pass a smaller limit')).toThrow(/position 1 alone is larger than the 1000-token answer budget; pass a smaller limit/);
  });

  it('cursors round-trip for the same question, keys in any order', () => {
    const c = encodeCursor('t', { b: 1, a: [1, 2] }, { offset: 5 });
    expect(decodeCursor('t', { a: [1, 2], b: 1 }, c)).toEqual({ offset: 5 });
    expect(stableJson({ b: 1, a: { d: 2, c: undefined } })).toBe('{"a":{"d":2},"b":1}');
  });

  it('pages cut text at line ends, and every character is in exactly one page', () => {
    const text = Array.from({ length: 500 }, (_, i) => `line ${i} ${'·'.repeat(i % 37)}`).join('\n');
    const ps = pages(text, 1000);
    expect(ps.join('')).toBe(text);
    expect(ps.every((p) => p.length <= 1000)).toBe(true);
    expect(ps.slice(0, -1).every((p) => p.endsWith('\n'))).toBe(true);
    expect(pages('', 10)).toEqual(['']);
  });
});
