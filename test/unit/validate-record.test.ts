import { describe, expect, it } from 'vitest';
import { isLogRecord, validateRecord } from '../../src/log/validate-record.js';
import { handshake, harness, req, res } from './helpers/session-harness.js';

const base = { v: 1, time: 1, session: 's', seq: 2 };

describe('validateRecord', () => {
  it('accepts what the analysis writes', () => {
    const h = handshake(harness());
    h.send('client', req(1, 'tools/call', { name: 'x' }));
    h.send('server', res(1, { content: [], isError: true }));
    h.push('server', 'garbage\n');
    h.push('stderr', 'log line\n');
    h.send('client', [req(2, 'tools/list')]);
    h.finish();
    expect(h.records.length).toBeGreaterThan(8);
    for (const r of h.records) expect(validateRecord(r)).toEqual([]);
  });

  it('ignores unknown fields and checks only the envelope of a newer version', () => {
    expect(validateRecord({ ...base, from: 'client', kind: 'notification', method: 'x', bytes: 1, msg: {}, futureField: 1 })).toEqual([]);
    expect(validateRecord({ ...base, v: 2, from: 'somewhere', kind: 'hologram' })).toEqual([]);
    expect(validateRecord({ ...base, v: 2, seq: 0 })).not.toEqual([]);
  });

  it('rejects what breaks the contract', () => {
    const bad: unknown[] = [
      null,
      [],
      { ...base, v: 0, from: 'client', kind: 'stderr', raw: '', bytes: 0 },
      { ...base, from: 'nobody', kind: 'stderr', raw: '', bytes: 0 },
      { ...base, from: 'client', kind: 'weird', bytes: 0 },
      { ...base, from: 'client', kind: 'request', id: 1, bytes: 1, msg: {} }, // no method
      { ...base, from: 'client', kind: 'request', id: {}, method: 'x', bytes: 1, msg: {} },
      { ...base, from: 'client', kind: 'notification', id: 1, method: 'x', bytes: 1, msg: {} },
      { ...base, from: 'client', kind: 'response', id: 1, bytes: 1, msg: {}, reqSeq: 5 }, // reqSeq after seq
      { ...base, from: 'client', kind: 'response', id: 1, bytes: 1, msg: {}, ms: -1 },
      { ...base, from: 'client', kind: 'response', id: 1, msg: {} }, // no bytes
      { ...base, from: 'client', kind: 'batch', items: [], bytes: 2, msg: [] },
      { ...base, from: 'client', kind: 'batch', items: [{ kind: 'batch' }], bytes: 2, msg: [1] },
      { ...base, from: 'client', kind: 'invalid', bytes: 1 },
      { ...base, from: 'client', kind: 'stderr', raw: 'x', bytes: 1 },
      { ...base, from: 'proxy', kind: 'event' },
      { ...base, from: 'proxy', kind: 'event', event: 'end', pending: [{ id: 1 }] },
      { ...base, from: 'proxy', kind: 'event', event: 'lifecycle', era: 'bronze' },
      { ...base, from: 'server', kind: 'invalid', raw: 'x', bytes: 1, notes: [{ code: 'Bad Code', text: 'x' }] },
      { ...base, from: 'server', kind: 'invalid', raw: 'x', bytes: 1, truncated: false },
      // HTTP mode: the http member's shape, and the events that need it
      { ...base, from: 'client', kind: 'notification', method: 'x', bytes: 1, msg: {}, http: 'POST' },
      { ...base, from: 'client', kind: 'notification', method: 'x', bytes: 1, msg: {}, http: { method: 'POST' } },
      { ...base, from: 'client', kind: 'notification', method: 'x', bytes: 1, msg: {}, http: { method: 'POST', path: '/mcp', stream: 'sideways' } },
      { ...base, from: 'server', kind: 'notification', method: 'x', bytes: 1, msg: {}, http: { method: 'GET', path: '/mcp', status: '200' } },
      { ...base, from: 'proxy', kind: 'event', event: 'refused', reason: 'x' },
    ];
    for (const b of bad) expect({ b, ok: isLogRecord(b) }).toEqual({ b, ok: false });
  });
});
