/** The mock's stdio edge with in-memory streams: backpressure from a slow client, and the end of the session. */
import { describe, expect, it } from 'vitest';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadSession } from '../../src/replay/load.js';
import { runMock } from '../../src/replay/run-mock.js';

const LOG = fileURLToPath(new URL('../fixtures/logs/replay-calc-bug.jsonl', import.meta.url));

describe('runMock', () => {
  it('stops reading while the client does not read, without piling up listeners, and answers everything', async () => {
    const { session } = await loadSession({ file: LOG, warn: () => {} }, 'mock');
    const stdin = new PassThrough();
    const lines: string[] = [];
    let maxDrainListeners = 0;
    let pending = '';
    // a client that reads one chunk at a time, slowly
    const stdout = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _enc, done) {
        pending += chunk.toString('utf8');
        const parts = pending.split('\n');
        pending = parts.pop()!;
        lines.push(...parts);
        setImmediate(done);
      },
    });
    const watch = setInterval(() => (maxDrainListeners = Math.max(maxDrainListeners, stdout.listenerCount('drain'))), 1);
    const said: string[] = [];
    const served = runMock(session, { stdin, stdout, say: (t) => said.push(t) }, 1000);
    const N = 500;
    let text = `${JSON.stringify({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: {} })}\n`;
    for (let i = 0; i < N; i++) text += `${JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } })}\n`;
    stdin.end(text);
    await served;
    await new Promise<void>((resolve) => stdout.end(resolve));
    clearInterval(watch);
    expect(lines).toHaveLength(N + 1);
    expect(lines.slice(1).map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(maxDrainListeners).toBeLessThanOrEqual(1);
    expect(said).toEqual([]);
  });

  it('ends when the client closes stdin, dropping nothing it had answered', async () => {
    const { session } = await loadSession({ file: LOG, warn: () => {} }, 'mock');
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const served = runMock(session, { stdin, stdout, say: () => {} }, 1000);
    stdin.end(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await served;
    expect(stdout.read()?.toString()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  });
});
