/** The UI's session card shows what the session costs in tokens (issue 30): before the first message, and the results so far. */
import { describe, expect, it } from 'vitest';
import { toolText } from '../../src/lens/context/model-text.js';
import { loadTokenizer } from '../../src/lens/context/tokenizer.js';
import type { LogRecord } from '../../src/log/record.js';
import { SessionCards } from '../../src/ui/session-cards.js';

describe('session card tokens', () => {
  it('counts the tool definitions and instructions, then adds each result', async () => {
    const tok = await loadTokenizer();
    const cards = new SessionCards(tok);
    const tool = { name: 'echo', description: 'Echoes back the input.', inputSchema: { type: 'object' } };
    let seq = 0;
    const add = (r: Partial<LogRecord>) => cards.add(0, 'x.jsonrpc.log', { v: 1, time: 1, session: 's', seq: ++seq, from: 'server', kind: 'response', ...r } as LogRecord);
    add({ from: 'proxy', kind: 'event', event: 'start', name: 'x' });
    add({ method: 'initialize', msg: { jsonrpc: '2.0', id: 0, result: { instructions: 'Use echo to test.' } } });
    add({ method: 'tools/list', msg: { jsonrpc: '2.0', id: 1, result: { tools: [tool] } } });
    const context = tok.count(toolText(tool)) + tok.count('Use echo to test.');
    expect(cards.all()[0]!.tokens).toEqual({ context, results: 0 });
    add({ from: 'client', kind: 'request', method: 'tools/call', target: 'echo' });
    add({ method: 'tools/call', target: 'echo', msg: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Hello, world!' }] } } });
    expect(cards.all()[0]!.tokens).toEqual({ context, results: 4 });
  });

  it('carries no tokens without a tokenizer', () => {
    const cards = new SessionCards();
    cards.add(0, 'x.jsonrpc.log', { v: 1, time: 1, session: 's', seq: 1, from: 'server', kind: 'response', method: 'tools/list', msg: { jsonrpc: '2.0', id: 1, result: { tools: [] } } });
    expect(cards.all()[0]!.tokens).toBeUndefined();
  });
});
