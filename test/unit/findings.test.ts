/**
 * Every note code the analysis can emit has a scenario here that makes it appear (and the other test
 * files check the details). A new code without a scenario fails this test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTE_CODE_LIST, type NoteCode } from '../../src/session/findings.js';
import { Lifecycle } from '../../src/session/lifecycle.js';
import type { Output } from '../../src/session/output.js';
import { Session } from '../../src/session/session.js';
import { err, handshake, harness, meta2026, note, req, res, type Harness } from './helpers/session-harness.js';

const init = (v = '2025-11-25') => req(0, 'initialize', { protocolVersion: v, capabilities: {}, clientInfo: { name: 'c', version: '1' } });

const scenarios: Record<NoteCode, (h: Harness) => void> = {
  'stdout-not-json': (h) => h.push('server', 'Listening on :8080\n'),
  'stdin-not-json': (h) => h.push('client', 'oops\n'),
  'not-jsonrpc': (h) => h.send('server', { hello: 'world' }),
  'invalid-utf8': (h) => h.push('server', Buffer.from([...Buffer.from('{"jsonrpc":"2.0","method":"x","params":{"a":"'), 0xc3, ...Buffer.from('"}}\n')])),
  'partial-line': (h) => {
    h.push('server', '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}');
    h.end('server');
  },
  truncated: (h) => {
    const shortened = JSON.stringify(note('notifications/message', { level: 'info', data: 'AAA…' }));
    h.session.onLine('server', { bytes: 5_000_000, head: Buffer.from('{"jsonrpc":"2.0"'), shortened }, 1);
  },
  'unknown-id': (h) => h.send('server', res(99)),
  'duplicate-answer': (h) => {
    h.send('client', req(1, 'tools/list'));
    h.send('server', res(1));
    h.send('server', res(1));
  },
  'id-reused': (h) => {
    h.send('client', req(1, 'tools/list'));
    h.send('client', req(1, 'tools/list'));
  },
  'null-id-request': (h) => h.send('client', req(null, 'tools/list')),
  'result-and-error': (h) => {
    h.send('client', req(1, 'tools/list'));
    h.send('server', { jsonrpc: '2.0', id: 1, result: {}, error: { code: -1, message: 'x' } });
  },
  'before-initialize': (h) => {
    h.send('client', init());
    h.send('client', req(1, 'tools/list'));
  },
  'cancel-initialize': (h) => {
    h.send('client', init());
    h.send('client', note('notifications/cancelled', { requestId: 0 }));
  },
  'cancel-unknown-id': (h) => h.send('client', note('notifications/cancelled', { requestId: 'nope' })),
  'progress-unknown-token': (h) => h.send('server', note('notifications/progress', { progressToken: 'x', progress: 1 })),
  'progress-not-increasing': (h) => {
    h.send('client', req(1, 'tools/call', { name: 't', _meta: { progressToken: 1 } }));
    h.send('server', note('notifications/progress', { progressToken: 1, progress: 5 }));
    h.send('server', note('notifications/progress', { progressToken: 1, progress: 4 }));
  },
  'progress-token-reused': (h) => {
    h.send('client', req(1, 'tools/call', { name: 't', _meta: { progressToken: 't' } }));
    h.send('client', req(2, 'tools/call', { name: 't', _meta: { progressToken: 't' } }));
  },
  'method-wrong-direction': (h) => h.send('server', req(1, 'tools/call', { name: 'x' })),
  'method-wrong-kind': (h) => h.send('client', note('tools/list')),
  'method-not-in-version': (h) => h.send('server', req(1, 'elicitation/create', { message: 'x', requestedSchema: {} })),
  'version-not-offered': (h) => {
    h.send('client', req(1, 'server/discover', { _meta: meta2026() }));
    h.send('server', res(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} }));
    h.send('client', req(2, 'tools/list', { _meta: meta2026({}, '2027-01-01') }));
  },
  'missing-protocol-version': (h) => {
    h.send('client', req(1, 'tools/list', { _meta: meta2026() }));
    h.send('client', req(2, 'tools/list'));
  },
  'header-mismatch': (h) => {
    const data = Buffer.from(JSON.stringify(req(1, 'tools/call', { name: 'get_weather', _meta: meta2026() })));
    h.session.onRoutedLine({ bytes: data.length, data }, 1, { protocolVersion: '2026-07-28', method: 'tools/call', name: 'get_forecast' });
  },
  'batch-not-allowed': (h) => h.send('client', [req(1, 'tools/list')]),
  'empty-batch': (h) => h.send('client', '[]'),
  'pending-overflow': () => {
    throw new Error('covered separately (needs a small maxPending)');
  },
  'analysis-error': () => {
    throw new Error('covered separately (needs a failing stage)');
  },
};

afterEach(() => {
  vi.restoreAllMocks();
});

/** The session a scenario starts from: none (fresh), or after a handshake at that version. */
const start: Partial<Record<NoteCode, 'fresh' | string>> = {
  'before-initialize': 'fresh',
  'cancel-initialize': 'fresh',
  'version-not-offered': 'fresh',
  'missing-protocol-version': 'fresh',
  'header-mismatch': 'fresh',
  'empty-batch': 'fresh',
  'method-not-in-version': '2025-03-26',
  'batch-not-allowed': '2025-06-18',
};

describe('every note code has a scenario that makes it appear', () => {
  for (const code of NOTE_CODE_LIST) {
    if (code === 'pending-overflow' || code === 'analysis-error') continue;
    it(code, () => {
      const from = start[code] ?? '2025-11-25';
      const h = from === 'fresh' ? harness() : handshake(harness(), from);
      expect(h.codes()).toEqual([]);
      scenarios[code](h);
      expect(h.codes()).toContain(code);
    });
  }

  it('pending-overflow', () => {
    const h = handshake(harness({ maxPending: 2 }));
    for (let i = 1; i <= 3; i++) h.send('client', req(i, 'tools/list'));
    expect(h.codes()).toEqual(['pending-overflow']);
  });

  it('analysis-error: a failing analysis stage keeps the record and says so', () => {
    vi.spyOn(Lifecycle.prototype, 'onInitialize').mockImplementation(() => {
      throw new Error('boom');
    });
    const outs: Output[] = [];
    const s = new Session({ id: 't' }, (o) => outs.push(o));
    const data = Buffer.from(JSON.stringify(req(0, 'initialize', {})));
    s.onLine('client', { bytes: data.length, data }, 1);
    expect(outs).toHaveLength(1);
    expect(outs[0]!.msgText).toBe(data.toString());
    expect(outs[0]!.record.notes?.map((n) => n.code)).toEqual(['analysis-error']);
    expect(outs[0]!.record.notes?.[0]?.text).toContain('boom');
  });

  it('a clean error answer produces no finding', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'nope' }));
    h.send('server', err(1, -32602, 'Unknown tool'));
    expect(h.codes()).toEqual([]);
  });
});
