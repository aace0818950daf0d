/**
 * The mock meets a client of the other protocol era as the recorded server would (issue 28 §4): a
 * handshake-era recording refuses server/discover with -32601 "Method not found"; a stateless recording
 * answers initialize from its recorded server/discover result (and its results without resultType), or,
 * without one, refuses initialize with an error naming the era mismatch and says so at start-up.
 * Recordings are written by the Session from hand-written messages.
 */
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { MockEngine, type MockOut } from '../../src/replay/mock-engine.js';
import { buildSession } from '../../src/replay/recorded.js';
import { handshake, harness, meta2026, note, req, res } from './helpers/session-harness.js';

type Json = Record<string, unknown>;
const engine = (records: LogRecord[]) => new MockEngine(buildSession(records), { now: () => 0, answerWaitMs: 100 });
const lines = (outs: MockOut[]) => outs.flatMap((o) => ('stdout' in o ? [JSON.parse(o.stdout) as Json] : []));
const said = (outs: MockOut[]) => outs.flatMap((o) => ('stderr' in o ? [o.stderr] : []));
const send = (e: MockEngine, m: Json) => e.onLine(JSON.stringify(m));

const TOOLS = { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };

/** A TypeScript-SDK-like session: initialize (2025-11-25), tools/list, one call. */
function handshakeRecording(): LogRecord[] {
  const h = handshake(harness({ id: 'rec-h' }));
  h.send('client', req(1, 'tools/list'));
  h.send('server', res(1, TOOLS));
  h.send('client', req(2, 'tools/call', { name: 'echo', arguments: { message: 'hi' } }));
  h.send('server', res(2, { content: [{ type: 'text', text: 'Echo: hi' }] }));
  return h.records;
}

const SERVER_INFO = { name: 'py-echo', version: '2.3.0' };
const stamp = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };

/** A 2026-07-28 session as a dual-era client makes it against a modern server: discover, then requests with _meta. */
function statelessRecording(withDiscover = true): LogRecord[] {
  const h = harness({ id: 'rec-s' });
  if (withDiscover) {
    h.send('client', req(0, 'server/discover', { _meta: meta2026() }));
    // change notifications come only on subscriptions/listen in 2026-07-28: a legacy client is told none come
    h.send('server', res(0, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {} }, instructions: 'Echoes.', _meta: stamp }));
  }
  h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
  h.send('server', res(1, { resultType: 'complete', ttlMs: 0, cacheScope: 'private', ...TOOLS, _meta: stamp }));
  h.send('client', req(2, 'tools/call', { name: 'echo', arguments: { message: 'hi' }, _meta: meta2026() }));
  h.send('server', res(2, { resultType: 'complete', content: [{ type: 'text', text: 'hi' }], isError: false, _meta: stamp }));
  expect(h.codes()).toEqual([]);
  return h.records;
}

const initialize = (version: string) => req('i', 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'ts', version: '1' } });

describe('mock of a handshake-era recording, a dual-era client', () => {
  it('refuses server/discover with -32601 "Method not found", as the older server does, then serves the handshake', () => {
    const e = engine(handshakeRecording());
    expect(e.eraNote()).toBeUndefined();
    const probe = send(e, req(0, 'server/discover', { _meta: meta2026() }));
    expect(lines(probe)).toEqual([{ jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } }]);
    expect(said(probe)).toEqual(['server/discover refused with -32601, as the recorded server (handshake era, 2025-11-25) refuses it: the client falls back to initialize']);
    expect(lines(send(e, initialize('2025-11-25')))[0]).toMatchObject({ id: 'i', result: { protocolVersion: '2025-11-25', serverInfo: { name: 's' } } });
    expect(lines(send(e, req(3, 'tools/call', { name: 'echo', arguments: { message: 'hi' } })))).toEqual([{ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'Echo: hi' }] } }]);
  });

  it('a recorded refused probe is served as recorded', () => {
    const h = harness({ id: 'rec-p' });
    h.send('client', req(0, 'server/discover', { _meta: meta2026() }));
    h.send('server', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Unknown method: server/discover' } });
    handshake(h);
    const e = engine(h.records);
    expect(lines(send(e, req(7, 'server/discover', { _meta: meta2026() })))).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32601, message: 'Unknown method: server/discover' } }]);
  });
});

describe('mock of a stateless recording, a handshake-era client', () => {
  it('answers initialize from the recorded server/discover result, with the client version, and says so', () => {
    const e = engine(statelessRecording());
    expect(e.eraNote()).toEqual({ text: 'the recording is stateless (2026-07-28): a client that opens with initialize is answered from the recorded server/discover result (#1), as a dual-era server would', refuses: false });
    const out = send(e, initialize('2025-11-25'));
    expect(lines(out)).toEqual([{ jsonrpc: '2.0', id: 'i', result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false }, logging: {} }, serverInfo: SERVER_INFO, instructions: 'Echoes.' } }]);
    expect(said(out)[0]).toMatch(/^initialize \(2025-11-25\) answered from the recorded server\/discover result #1 with 2025-11-25/);
  });

  it('then serves the recorded results without what only the stateless revision has (resultType, cache hints, the serverInfo stamp)', () => {
    const e = engine(statelessRecording());
    send(e, initialize('2025-06-18'));
    expect(lines(send(e, note('notifications/initialized')))).toEqual([]);
    expect(lines(send(e, req(1, 'tools/list')))).toEqual([{ jsonrpc: '2.0', id: 1, result: TOOLS }]);
    expect(lines(send(e, req(2, 'tools/call', { name: 'echo', arguments: { message: 'hi' } })))).toEqual([
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }], isError: false } },
    ]);
  });

  it('a modern client of the same recording gets the results as recorded', () => {
    const e = engine(statelessRecording());
    expect(lines(send(e, req(1, 'tools/list', { _meta: meta2026() })))[0]!['result']).toMatchObject({ resultType: 'complete' });
  });

  it('answers an unknown or future version with the newest handshake-era one', () => {
    const e = engine(statelessRecording());
    expect(lines(send(e, initialize('2099-01-01')))[0]).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('names the server from the first result that says, not the last (a later result without the stamp)', () => {
    const h = harness({ id: 'rec-s2' });
    h.send('client', req(0, 'server/discover', { _meta: meta2026() }));
    h.send('server', res(0, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: stamp }));
    h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    h.send('server', res(1, { resultType: 'complete', ...TOOLS }));
    const out = send(engine(h.records), initialize('2025-11-25'));
    expect(lines(out)[0]).toMatchObject({ result: { serverInfo: SERVER_INFO } });
  });

  it('without a recorded server/discover result: says at start-up it will refuse, and refuses initialize naming the mismatch', () => {
    const e = engine(statelessRecording(false));
    expect(e.eraNote()).toEqual({ text: 'the recording is stateless (2026-07-28) and has no server/discover answer: a client that opens with initialize (the handshake era) will be refused, there is nothing to answer it from', refuses: true });
    const out = send(e, initialize('2025-11-25'));
    const error = lines(out)[0]!['error'] as Json;
    expect(error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } });
    expect(error['message']).toBe(
      'mcp-tap mock: the recorded server speaks 2026-07-28 (stateless, no initialize) and the recording has no server/discover answer to answer initialize from; this client opened with initialize (2025-11-25), the handshake era',
    );
    expect(said(out)[0]).toMatch(/: refused$/);
  });
});
