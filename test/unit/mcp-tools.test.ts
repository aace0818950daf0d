/**
 * `mcp-tap mcp`'s tools and resources (issue 32) on recorded sessions, through the official SDK client
 * in memory: every tool is read-only with an input and an output schema, every answer validates against
 * its schema (the client checks), each tool shows what the CLI command it adapts shows, and no planted
 * secret survives in any answer, nor can a search for one tell it is there.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANTED_SECRETS, plantedRedactOptions, SECRETS_LOG, survivingSecrets } from '../fixtures/planted-secrets.js';
import { errorText, memoryClient, ok, type MemoryClient } from '../helpers/mcp-memory.js';
import { tempDir } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

const LOGS = new URL('../fixtures/logs/', import.meta.url).pathname;
const box = tempDir('mcp-tap-mcp-tools-');
let m: MemoryClient;

beforeAll(async () => {
  for (const [from, to] of [
    ['everything.jsonl', 'everything.jsonrpc.log'],
    ['check-problems.jsonl', 'demo.jsonrpc.log'],
    ['check-diff-a.jsonl', 'diff-a.jsonrpc.log'],
    ['check-diff-b.jsonl', 'diff-b.jsonrpc.log'],
  ]) {
    copyFileSync(join(LOGS, from!), join(box.dir, to!));
  }
  copyFileSync(SECRETS_LOG, join(box.dir, 'secret-server.jsonrpc.log'));
  // the user's rules too (as --redact-key, --redact-pattern, --redact-env), so every planted secret is covered
  m = await memoryClient({ dir: box.dir }, { redact: plantedRedactOptions });
});
afterAll(async () => {
  await m.close();
  box.cleanup();
});

type Row = { id: string; log: string; server?: string; errors: number; toolErrors: number; findings: number; uri: string };

describe('mcp-tap mcp: tools', () => {
  it('lists seven tools, each read-only, closed-world, with an input and an output schema', async () => {
    const { tools } = await m.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['check_session', 'diff_sessions', 'get_message', 'get_session', 'list_sessions', 'search_messages', 'session_stats']);
    for (const t of tools) {
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, openWorldHint: false, destructiveHint: false });
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(40);
    }
  });

  it('list_sessions: every session of the directory, newest first, with the filters of its arguments', async () => {
    const all = ok<{ sessions: Row[]; total: number; source: string }>(await m.call('list_sessions'));
    expect(all.source).toBe(box.dir);
    expect(all.sessions.map((s) => s.id)).toEqual(['fixture-secrets', 'diff-bbbb', 'diff-aaaa', 'problems-0001', 's2-bbbb', 's1-aaaa']);
    expect(all.sessions[0]).toMatchObject({ log: 'secret-server.jsonrpc.log', server: 'secret-server', uri: 'mcp-tap://session/fixture-secrets' });
    const everything = ok<{ sessions: Row[] }>(await m.call('list_sessions', { server: 'EVERY' }));
    expect(everything.sessions.map((s) => s.id)).toEqual(['s2-bbbb', 's1-aaaa']);
    const bad = ok<{ sessions: Row[] }>(await m.call('list_sessions', { errorsOnly: true }));
    expect(bad.sessions.every((s) => s.errors + s.toolErrors + s.findings > 0)).toBe(true);
    expect(bad.sessions.map((s) => s.id)).not.toContain('s2-bbbb');
    const since = ok<{ sessions: Row[] }>(await m.call('list_sessions', { since: '2026-01-01T09:10:00Z' }));
    expect(since.sessions.map((s) => s.id)).toEqual(['fixture-secrets', 'diff-bbbb', 'diff-aaaa', 'problems-0001']);
    expect(errorText(await m.call('list_sessions', { since: 'yesterday-ish' }))).toMatch(/ISO 8601 time or an age/);
  });

  it('search_messages finds the failed call by its text, across every log, with the tail filters', async () => {
    const found = ok<{ matches: Array<Record<string, unknown>>; complete: boolean }>(await m.call('search_messages', { text: 'missing argument' }));
    expect(found.complete).toBe(true);
    expect(found.matches).toEqual([expect.objectContaining({ log: 'everything.jsonrpc.log', session: 's1-aaaa', kind: 'response', method: 'tools/call', target: 'get-sum', isError: true, reqSeq: 11 })]);
    const errors = ok<{ matches: Array<{ kind: string; session: string }> }>(await m.call('search_messages', { session: 's1', errors: true, kind: ['error'] }));
    expect(errors.matches.map((x) => [x.session, x.kind])).toEqual([['s1-aaaa', 'error']]);
    const slow = ok<{ matches: Array<{ ms: number }> }>(await m.call('search_messages', { slowerThanMs: 1000 }));
    expect(slow.matches.length).toBeGreaterThan(0);
    expect(slow.matches.every((x) => x.ms >= 1000)).toBe(true);
    const lists = ok<{ matches: Array<{ method: string; from: string }> }>(await m.call('search_messages', { session: 's1-aaaa', method: ['*/list'], from: 'client' }));
    expect(lists.matches.length).toBeGreaterThan(0);
    expect(lists.matches.every((x) => x.method.endsWith('/list') && x.from === 'client')).toBe(true);
    // by tool (a glob over the tool, prompt or resource a request names): the calls and their answers
    const sums = ok<{ matches: Array<{ seq: number; kind: string; target: string }> }>(await m.call('search_messages', { session: 's1-aaaa', tool: ['get-*', 'simple_prompt'] }));
    expect(sums.matches.map((x) => [x.seq, x.kind, x.target])).toEqual([
      [11, 'request', 'get-sum'],
      [12, 'response', 'get-sum'],
      [15, 'request', 'simple_prompt'],
      [19, 'response', 'simple_prompt'],
    ]);
    const echoErrors = ok<{ matches: unknown[] }>(await m.call('search_messages', { session: 's1-aaaa', tool: ['echo'], errors: true }));
    expect(echoErrors.matches).toEqual([]);
  });

  it('get_message shows a record with the request it answers, and a request with its answer', async () => {
    const answer = ok<{ message: Record<string, unknown>; request?: Record<string, unknown>; answer?: unknown }>(await m.call('get_message', { session: 's1-aaaa', seq: 12 }));
    expect(answer.message).toMatchObject({ seq: 12, kind: 'response', isError: true, body: { result: { isError: true } } });
    expect(answer.request).toMatchObject({ seq: 11, kind: 'request', method: 'tools/call', body: { params: { name: 'get-sum' } } });
    const request = ok<{ message: Record<string, unknown>; answer?: Record<string, unknown> }>(await m.call('get_message', { session: 's1-aaaa', seq: 11 }));
    expect(request.answer).toMatchObject({ seq: 12, reqSeq: 11 });
    expect(errorText(await m.call('get_message', { session: 's1-aaaa', seq: 9999 }))).toMatch(/no record with seq 9999 in session s1-aaaa/);
  });

  it('get_session and session_stats give what the export header and stats --json give', async () => {
    const s = ok<{ header: Record<string, unknown>; errors: number; isErrorResults: number; findings: { total: number } }>(await m.call('get_session', { session: 's1-aaaa' }));
    expect(s.header).toMatchObject({ session: 's1-aaaa', name: 'everything', protocolVersion: expect.any(String) });
    expect(s.errors).toBe(1);
    expect(s.isErrorResults).toBe(1);
    const st = ok<{ tools: Array<{ tool: string; count: number }>; methods: Array<{ method: string; count: number }> }>(await m.call('session_stats', { session: 's1-aaaa' }));
    const recs = readRecords(join(LOGS, 'everything.jsonl')).filter((r) => r.session === 's1-aaaa' && r.kind === 'request' && r.method === 'tools/call');
    expect(st.tools.reduce((n, t) => n + t.count, 0)).toBe(recs.length);
    const pooled = ok<{ sessions: unknown[] }>(await m.call('session_stats', { session: 'all', log: 'everything.jsonrpc.log' }));
    expect(pooled.sessions).toHaveLength(2);
  });

  it('check_session gives the check verdict, with the CLI options', async () => {
    const c = ok<{ passed: boolean; failed: string[]; problems: Array<{ ruleId: string; request?: number }>; requests: Array<{ status: string }>; log: string }>(await m.call('check_session', { session: 'problems-0001' }));
    expect(c.passed).toBe(false);
    expect(c.log).toBe('demo.jsonrpc.log');
    expect(c.problems.length).toBeGreaterThan(0);
    // the requests listed are exactly those the problems point at
    for (const p of c.problems) if (p.request !== undefined) expect(c.requests[p.request]).toBeDefined();
    const none = ok<{ passed: boolean }>(await m.call('check_session', { session: 'problems-0001', failOn: ['none'] }));
    expect(none.passed).toBe(true);
    const expectTool = ok<{ passed: boolean; problems: Array<{ ruleId: string }> }>(await m.call('check_session', { session: 'problems-0001', failOn: ['assertions'], expectTools: ['no-such-tool'] }));
    expect(expectTool.passed).toBe(false);
    expect(errorText(await m.call('check_session', { failOn: ['sometimes'] }))).toMatch(/--fail-on takes a list of/);
  });

  it('diff_sessions says what changed between two sessions', async () => {
    const d = ok<{ identical: boolean; differences: Array<{ area: string; kind: string }>; a: { session: string } }>(await m.call('diff_sessions', { a: 'diff-aaaa', b: 'diff-bbbb' }));
    expect(d.a.session).toBe('diff-aaaa');
    expect(d.identical).toBe(false);
    expect(d.differences.some((x) => x.area === 'tools')).toBe(true);
    const same = ok<{ identical: boolean }>(await m.call('diff_sessions', { a: 'diff-aaaa', b: 'diff-aaaa' }));
    expect(same.identical).toBe(true);
  });

  it('resources: a session per resource, its Markdown export redacted', async () => {
    const { resources } = await m.client.listResources();
    expect(resources.map((r) => r.uri)).toContain('mcp-tap://session/s1-aaaa');
    expect(resources.every((r) => r.mimeType === 'text/markdown')).toBe(true);
    const md = (await m.read('mcp-tap://session/s1-aaaa')).contents[0] as { text: string };
    expect(md.text).toMatch(/^# MCP session: `everything`/);
    expect(md.text).toContain('Secrets are redacted');
    const { resourceTemplates } = await m.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mcp-tap://session/{id}']);
  });
});

describe('mcp-tap mcp: secrets', () => {
  beforeAll(() => {
    // the same server later, its tool's secret default changed, and a description: diff compares redacted definitions
    const v2 = readFileSync(SECRETS_LOG, 'utf8').replaceAll('"fixture-secrets"', '"fixture-secrets-2"').replace('PLANTEDschemaDefault"', 'PLANTEDschemaDefaultTwo"').replace('"Fetch a URL"', '"Fetch a URL, v2"');
    writeFileSync(join(box.dir, 'secret-server-2.jsonrpc.log'), v2);
  });

  it('no planted secret appears in any answer of any tool or resource', async () => {
    const s = 'fixture-secrets';
    const changed = ok<{ differences: Array<{ area: string; name: string }> }>(await m.call('diff_sessions', { a: s, b: 'fixture-secrets-2' }));
    expect(changed.differences.filter((d) => d.area === 'tools').map((d) => d.name)).toEqual(['fetch']);
    await m.call('list_sessions');
    await m.call('get_session', { session: s });
    await m.call('session_stats', { session: s });
    await m.call('check_session', { session: s });
    await m.call('diff_sessions', { a: s, b: 's1-aaaa' });
    const all = ok<{ matches: Array<{ seq: number }> }>(await m.call('search_messages', { session: s, limit: 200 }));
    expect(all.matches.length).toBeGreaterThan(20);
    for (const x of all.matches) await m.call('get_message', { session: s, seq: x.seq });
    await m.read(`mcp-tap://session/${s}`);
    const { resources } = await m.client.listResources();
    m.seen.push(JSON.stringify(resources));
    const text = m.seen.join('\n');
    expect(text).toContain('[REDACTED:');
    expect(survivingSecrets(text)).toEqual([]);
  });

  it('a search for a secret finds nothing: the filters see redacted records', async () => {
    for (const { secret } of PLANTED_SECRETS.slice(0, 12)) {
      const r = ok<{ matches: unknown[] }>(await m.call('search_messages', { text: secret }));
      expect(r.matches, secret).toEqual([]);
    }
    // what a redacted value reads as is searchable
    expect(ok<{ matches: unknown[] }>(await m.call('search_messages', { text: 'REDACTED:bearer-token' })).matches.length).toBeGreaterThan(0);
  });
});
