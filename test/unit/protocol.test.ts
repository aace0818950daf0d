import { describe, expect, it } from 'vitest';
import { classify } from '../../src/protocol/classify.js';
import { batchAllowed, checkMethod, eraOf, isKnownVersion, targetParam } from '../../src/protocol/mcp.js';

describe('classify', () => {
  it('recognises the four message kinds', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' })).toMatchObject({ kind: 'request', id: 1, method: 'ping' });
    expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ kind: 'notification', hasId: false });
    expect(classify({ jsonrpc: '2.0', id: 'a', result: {} })).toMatchObject({ kind: 'response', id: 'a' });
    expect(classify({ jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'x' } })).toMatchObject({ kind: 'error', id: 2 });
  });

  it('keeps the type of ids', () => {
    expect(classify({ jsonrpc: '2.0', id: '1', method: 'ping' }).id).toBe('1');
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' }).id).toBe(1);
  });

  it('tells null ids and missing ids apart', () => {
    expect(classify({ jsonrpc: '2.0', id: null, method: 'ping' })).toMatchObject({ kind: 'request', hasId: true, nullId: true });
    expect(classify({ jsonrpc: '2.0', id: null, method: 'ping' }).id).toBeUndefined();
    expect(classify({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } })).toMatchObject({ kind: 'error', hasId: false, nullId: true });
    expect(classify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } })).toMatchObject({ kind: 'error', hasId: true, nullId: true });
  });

  it('calls non-JSON-RPC values invalid, with a reason', () => {
    for (const v of [1, 'x', null, [], true, {}, { jsonrpc: '2.0' }, { id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 1 }, { jsonrpc: '2.0', id: [1], method: 'ping' }, { jsonrpc: '2.0', id: true, result: {} }]) {
      const c = classify(v);
      expect(c.kind).toBe('invalid');
      expect(c.defect).toBeTruthy();
    }
  });

  it('keeps the shape of an invalid message for pairing', () => {
    expect(classify({ id: 1, result: {} })).toMatchObject({ kind: 'invalid', shape: 'answer', id: 1 });
    expect(classify({ id: 1, method: 'x' })).toMatchObject({ kind: 'invalid', shape: 'request', id: 1, method: 'x' });
  });

  it('marks recognisable messages with a defect', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } })).toMatchObject({ kind: 'error', both: true });
    expect(classify({ jsonrpc: '2.0', id: 1, error: 'bad' })).toMatchObject({ kind: 'error', defect: expect.any(String) });
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: 'p' })).toMatchObject({ kind: 'request', defect: expect.any(String) });
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: null })).toMatchObject({ kind: 'request', defect: expect.any(String) });
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'x', params: [1] }).defect).toBeUndefined();
  });
});

describe('MCP method tables', () => {
  it('knows the revisions and their eras', () => {
    expect(isKnownVersion('2025-11-25')).toBe(true);
    expect(isKnownVersion('2025-11-26')).toBe(false);
    expect(eraOf('2025-11-25')).toBe('handshake');
    expect(eraOf('2026-07-28')).toBe('stateless');
    expect(batchAllowed('2025-03-26')).toBe(true);
    expect(batchAllowed('2025-06-18')).toBe(false);
  });

  it('accepts what each side may send', () => {
    expect(checkMethod('2025-11-25', 'client', true, 'tools/call')).toBeNull();
    expect(checkMethod('2025-11-25', 'server', true, 'roots/list')).toBeNull();
    expect(checkMethod('2025-11-25', 'server', true, 'tasks/get')).toBeNull();
    expect(checkMethod('2025-11-25', 'client', false, 'notifications/tasks/status')).toBeNull();
    expect(checkMethod('2025-11-25', 'server', false, 'notifications/elicitation/complete')).toBeNull();
    expect(checkMethod('2025-06-18', 'server', true, 'elicitation/create')).toBeNull();
    expect(checkMethod('2024-11-05', 'client', true, 'ping')).toBeNull();
    expect(checkMethod('2024-11-05', 'server', true, 'ping')).toBeNull();
    expect(checkMethod('2026-07-28', 'client', true, 'server/discover')).toBeNull();
    expect(checkMethod('2026-07-28', 'client', true, 'subscriptions/listen')).toBeNull();
    expect(checkMethod('2026-07-28', 'server', false, 'notifications/subscriptions/acknowledged')).toBeNull();
  });

  it('flags the wrong direction, the wrong kind and methods outside the version', () => {
    expect(checkMethod('2025-11-25', 'server', true, 'tools/call')?.code).toBe('method-wrong-direction');
    expect(checkMethod('2025-11-25', 'client', false, 'notifications/message')?.code).toBe('method-wrong-direction');
    expect(checkMethod('2025-11-25', 'client', true, 'notifications/initialized')?.code).toBe('method-wrong-kind');
    expect(checkMethod('2025-11-25', 'client', false, 'tools/list')?.code).toBe('method-wrong-kind');
    expect(checkMethod('2025-06-18', 'client', true, 'tasks/get')?.code).toBe('method-not-in-version');
    expect(checkMethod('2025-03-26', 'server', true, 'elicitation/create')?.code).toBe('method-not-in-version');
    expect(checkMethod('2026-07-28', 'server', true, 'sampling/createMessage')?.code).toBe('method-not-in-version');
    expect(checkMethod('2026-07-28', 'client', true, 'initialize')?.code).toBe('method-not-in-version');
    expect(checkMethod('2026-07-28', 'client', false, 'notifications/progress')?.code).toBe('method-wrong-direction');
  });

  it('uses all revisions while the version is unknown, and never flags custom methods', () => {
    expect(checkMethod(undefined, 'client', true, 'server/discover')).toBeNull();
    expect(checkMethod(undefined, 'client', true, 'initialize')).toBeNull();
    expect(checkMethod(undefined, 'server', true, 'tools/list')?.code).toBe('method-wrong-direction');
    expect(checkMethod('1999-01-01', 'server', true, 'elicitation/create')).toBeNull();
    expect(checkMethod('2025-11-25', 'client', true, 'acme/do')).toBeNull();
    expect(checkMethod('2026-07-28', 'client', true, 'tasks/update')).toBeNull();
    // the tasks extension's status notification (its schema keeps the 2025-11-25 name)
    expect(checkMethod('2026-07-28', 'server', false, 'notifications/tasks/status')).toBeNull();
    expect(checkMethod('2026-07-28', 'server', false, 'notifications/tasks')).toBeNull();
  });

  it('names the target param', () => {
    expect(targetParam('tools/call')).toBe('name');
    expect(targetParam('prompts/get')).toBe('name');
    expect(targetParam('resources/read')).toBe('uri');
    expect(targetParam('tools/list')).toBeUndefined();
  });
});
