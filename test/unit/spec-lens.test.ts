/**
 * The spec lens over sessions recorded by the real analysis (in memory): the six messages of issue 29
 * in a 2025-11-25 session, each flagged at its own seq and nothing else; the revision followed from the
 * offer, the answer and a stateless request's `_meta`; a session read from its middle; batches,
 * shortened copies and broken messages; and every committed fixture log of real traffic clean.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LensStage } from '../../src/lens/apply-lenses.js';
import { lensStage } from '../../src/lens/lenses.js';
import { SCHEMA_VIOLATION, specLens } from '../../src/lens/spec-lens.js';
import { readRecords } from '../../src/log/read-log.js';
import type { LogRecord } from '../../src/log/record.js';
import { ROOT } from '../helpers/paths.js';
import { err, handshake, harness, meta2026, note, req, res, type Harness } from './helpers/session-harness.js';

/** The records with the lens' notes; `first` records are skipped (a reader starting mid-session). */
function lensed(records: LogRecord[], first = 0): LogRecord[] {
  const stage = new LensStage([specLens]);
  return records.slice(first).map((r) => stage.apply(structuredClone(r)));
}
const violations = (records: LogRecord[]) => records.flatMap((r) => (r.notes ?? []).filter((n) => n.code === SCHEMA_VIOLATION).map((n) => ({ seq: r.seq, text: n.text })));
const text = { type: 'text', text: 'ok' };

describe('the six messages of issue 29 in a 2025-11-25 session', () => {
  const h = harness();
  h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host', version: '1' } }));
  h.send('server', res(0, { protocolVersion: '2025-11-25', capabilities: { tools: {}, resources: {} }, serverInfo: { name: 'srv' } })); // 1: no version
  h.send('client', note('notifications/initialized'));
  h.send('client', req(1, 'tools/list'));
  h.send('server', res(1, { tools: [{ name: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } }] })); // 2
  h.send('client', req(2, 'tools/call', { name: 'read', arguments: {}, _meta: { progressToken: 2 } }));
  h.send('server', note('notifications/progress', { progressToken: 2, progress: 1, total: 2 }));
  h.send('server', note('notifications/progress', { progressToken: 2, progress: 'half' })); // 3
  h.send('server', res(2, { content: [{ type: 'text' }] })); // 4: no text
  h.send('client', req(3, 'tools/call', { arguments: {} })); // 5: no name
  h.send('server', err(3, -32602, 'Unknown tool'));
  h.send('client', req(4, 'resources/read', { uri: 'file:///a.md' }));
  h.send('server', res(4, { contents: [{ mimeType: 'text/markdown', text: '# a' }] })); // 6: no uri
  h.send('client', req(5, 'ping'));
  h.send('server', res(5));
  h.finish();
  const out = lensed(h.records);
  const seqOf = (pred: (r: LogRecord) => boolean) => h.records.find(pred)!.seq;
  const expected = [
    { seq: seqOf((r) => r.kind === 'response' && r.method === 'initialize'), pointer: '/result/serverInfo/version: expected string, found nothing (missing)', shape: 'InitializeResult' },
    { seq: seqOf((r) => r.kind === 'response' && r.method === 'tools/list'), pointer: '/result/tools/0/annotations/readOnlyHint: expected boolean, found "yes" (a string)', shape: 'ListToolsResult' },
    { seq: seqOf((r) => r.method === 'notifications/progress' && (r.msg as { params: { progress: unknown } }).params.progress === 'half'), pointer: '/params/progress: expected number, found "half" (a string)', shape: 'ProgressNotification' },
    { seq: seqOf((r) => r.kind === 'response' && r.method === 'tools/call'), pointer: '/result/content/0/text: expected string, found nothing (missing)', shape: 'CallToolResult' },
    { seq: seqOf((r) => r.kind === 'request' && r.id === 3), pointer: '/params/name: expected string, found nothing (missing)', shape: 'CallToolRequest' },
    { seq: seqOf((r) => r.kind === 'response' && r.method === 'resources/read'), pointer: '/result/contents/0/uri: expected string, found nothing (missing)', shape: 'ReadResourceResult' },
  ];

  it('flags each at its own seq, and nothing else in the session', () => {
    expect(violations(out).map((v) => v.seq)).toEqual(expected.map((e) => e.seq));
    // the analysis itself found nothing in this session: every note is the lens'
    expect(h.codes()).toEqual([]);
    expect(out.flatMap((r) => (r.notes ?? []).map((n) => n.code))).toEqual(expected.map(() => SCHEMA_VIOLATION));
  });

  it('names the JSON Pointer, what was expected and found, the schema type and its spec section', () => {
    const v = violations(out);
    expected.forEach((e, i) => {
      expect(v[i]!.text).toContain(`${e.shape} of MCP 2025-11-25: ${e.pointer}`);
      expect(v[i]!.text).toContain(`See https://modelcontextprotocol.io/specification/2025-11-25/schema#${e.shape.toLowerCase()}`);
    });
  });

  it('says what a host built on the TypeScript SDK does with each', () => {
    const v = violations(out).map((x) => x.text);
    expect(v[0]).toContain('The TypeScript SDK client rejects this answer: connecting fails and the host shows the server as failed.');
    expect(v[1]).toContain('listing fails and the host shows none of the server\'s tools.');
    expect(v[2]).toContain('The TypeScript SDK drops it (reporting an error): the progress callback is never called.');
    expect(v[3]).toContain('the call fails with a validation error instead of the tool\'s result.');
    expect(v[4]).toContain('A TypeScript SDK server does not run its handler: it answers with an error.');
    expect(v[5]).toContain('reading the resource fails and the host shows nothing.');
  });

  it('raises the records it flags to the warning level, as the analysis does with its notes', () => {
    for (const e of expected) expect(out.find((r) => r.seq === e.seq)!.level).toBe(40);
    expect(out.find((r) => r.kind === 'request' && r.method === 'ping')!.level).toBe(30);
  });
});

describe('the revision a message is read under', () => {
  const audioResult = (h: Harness) => {
    h.send('client', req(1, 'tools/call', { name: 'speak' }));
    h.send('server', res(1, { content: [{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }] }));
  };

  it('is the version the server answered: audio content is a violation under 2024-11-05, not under 2025-03-26', () => {
    const old = handshake(harness(), '2025-11-25', '2024-11-05');
    audioResult(old);
    expect(violations(lensed(old.records)).map((v) => v.text)).toEqual([expect.stringContaining('CallToolResult of MCP 2024-11-05: /result/content/0/type: expected one of "text", "image", "resource"')]);
    const newer = handshake(harness(), '2025-11-25', '2025-03-26');
    audioResult(newer);
    expect(violations(lensed(newer.records))).toEqual([]);
  });

  it('the initialize answer itself is read in the version it names, not the one offered', () => {
    const h = harness();
    h.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    // `completions` is no capability in 2024-11-05 (an unknown member); from 2025-03-26 it must be an object
    h.send('server', res(0, { protocolVersion: '2024-11-05', capabilities: { completions: true }, serverInfo: { name: 's', version: '1' } }));
    expect(violations(lensed(h.records.filter((r) => r.kind !== 'event')))).toEqual([]);
    const newer = harness();
    newer.send('client', req(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    newer.send('server', res(0, { protocolVersion: '2025-03-26', capabilities: { completions: true }, serverInfo: { name: 's', version: '1' } }));
    expect(violations(lensed(newer.records.filter((r) => r.kind !== 'event'))).map((v) => v.text)).toEqual([expect.stringContaining('InitializeResult of MCP 2025-03-26: /result/capabilities/completions: expected object')]);
  });

  it('before the answer, is the version the client offered', () => {
    const h = harness();
    h.send('client', req(0, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
    h.send('server', note('notifications/message', { level: 'info' }));
    expect(violations(lensed(h.records)).map((v) => v.text)).toEqual([expect.stringContaining('LoggingMessageNotification of MCP 2025-06-18: /params/data: expected a value, found nothing (missing)')]);
  });

  it('in a stateless session, is the request\'s own _meta version; what the analysis says already is not said twice', () => {
    const h = harness();
    h.send('client', req(1, 'tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }));
    h.send('server', res(1, { tools: [], ttlMs: 0, cacheScope: 'private' }));
    h.send('client', req(2, 'tools/list', {}));
    const out = lensed(h.records);
    expect(violations(out).map((v) => v.text)).toEqual([
      expect.stringContaining('ListToolsRequest of MCP 2026-07-28: /params/_meta/io.modelcontextprotocol~1clientCapabilities: expected object, found nothing (missing)'),
      expect.stringContaining('ListToolsResult of MCP 2026-07-28: /result/resultType: expected string, found nothing (missing)'),
    ]);
    // the third request has no _meta at all: missing-protocol-version says so, and nothing more is added
    expect(out.find((r) => r.kind === 'request' && r.id === 2)!.notes?.map((n) => n.code)).toEqual(['missing-protocol-version']);
  });

  it('a refused discovery probe and its fallback handshake are clean', () => {
    const h = harness();
    h.send('client', req(0, 'server/discover', { _meta: meta2026() }));
    h.send('server', err(0, -32601, 'Method not found'));
    handshake(h, '2025-11-25', '2025-06-18');
    h.send('client', req(1, 'tools/list', {}));
    h.send('server', res(1, { tools: [{ name: 'echo', inputSchema: { type: 'object' }, execution: { taskSupport: 'forbidden' } }] }));
    expect(violations(lensed(h.records))).toEqual([]);
  });

  it('unknown (a reader starting mid-session): only what no revision allows is flagged', () => {
    const h = handshake(harness(), '2025-11-25', '2024-11-05');
    audioResult(h); // a violation under 2024-11-05, allowed by later revisions
    h.send('client', req(2, 'tools/call', { name: 'x' }));
    h.send('server', res(2, { content: [{ type: 'text' }] }));
    const fromMiddle = lensed(h.records, 4);
    expect(violations(fromMiddle).map((v) => v.text)).toEqual([expect.stringContaining("CallToolResult of any MCP revision (the session's is not known here; 2025-11-25's shown): /result/content/0/text: expected string, found nothing (missing). The TypeScript SDK")]);
  });
});

describe('what the lens reads', () => {
  it('a batch: each element by its own method, noted as "element N"', () => {
    const h = handshake(harness(), '2025-03-26');
    h.send('client', [req(1, 'tools/list'), req(2, 'prompts/list')]);
    h.send('server', [res(1, { tools: [] }), res(2, { prompts: [{ description: 'no name' }] })]);
    expect(violations(lensed(h.records)).map((v) => v.text)).toEqual([expect.stringMatching(/^element 2: this answer to prompts\/list does not match ListPromptsResult of MCP 2025-03-26: \/1\/result\/prompts\/0\/name: expected string/)]);
  });

  it('not a shortened copy, not a message the analysis found broken, not an unknown or vendor method', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 't' }));
    const answer = h.send('server', res(1, { content: [{ type: 'text' }] }));
    h.send('client', req(2, 'acme/frobnicate', { anything: 1 }));
    h.send('server', { jsonrpc: '2.0', id: 2, error: { code: 'x', message: 1 } });
    const records = h.records.map((r) => (r.seq === answer.seq ? { ...r, truncated: true as const } : r));
    const out = lensed(records);
    expect(violations(out)).toEqual([]);
    expect(out.at(-1)!.notes?.map((n) => n.code)).toContain('not-jsonrpc');
  });

  it('lists three violations of a message, then counts the rest', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/list'));
    h.send('server', res(1, { tools: [1, 2, 3, 4, 5] }));
    const [v] = violations(lensed(h.records));
    expect(v!.text).toMatch(/\/result\/tools\/0: expected object, found 1 \(a number\); \/result\/tools\/1: .*; \/result\/tools\/2: .*; and 2 more\./);
  });
});

describe('committed fixture logs of real traffic', () => {
  const dir = join(ROOT, 'test', 'fixtures', 'logs');
  it('have no schema violation, but the one planted in check-problems.jsonl (a tool whose inputSchema is an array)', async () => {
    const found: string[] = [];
    for (const f of readdirSync(dir).sort()) {
      for await (const item of readRecords(join(dir, f), { stage: lensStage() })) {
        if ('record' in item) for (const n of item.record.notes ?? []) if (n.code === SCHEMA_VIOLATION) found.push(`${f}:${item.line}`);
      }
    }
    expect(readdirSync(dir).length).toBeGreaterThan(10);
    expect(found).toEqual(['check-problems.jsonl:9']);
  });
});
