/**
 * `mcp-tap mock` over raw stdio, serving the bug report shipped as a fixture: ids chosen by the client,
 * a shortened answer served as the log holds it (and said so on stderr), the server's own sampling
 * request with the answer waited for, -32601 for what was never recorded, nothing but JSON on stdout,
 * exit 0 when the client closes stdin.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';
import { waitFor } from '../helpers/wait.js';

const LOG = join(ROOT, 'test', 'fixtures', 'logs', 'replay-calc-bug.jsonl');

type Json = Record<string, unknown>;

describe('mcp-tap mock over raw stdio', () => {
  it('serves the recorded session and explains what it cannot serve exactly', async () => {
    const run = runTap(['mock', LOG]);
    try {
      const lines = (): Json[] =>
        run
          .stdout()
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Json);
      const answerTo = (id: unknown) => waitFor(() => lines().find((m) => m['id'] === id && ('result' in m || 'error' in m)), 10_000, `the answer to ${String(id)}`);
      const send = (m: Json) => run.write(`${JSON.stringify(m)}\n`);

      await send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'raw', version: '0' } } });
      expect(((await answerTo('init'))['result'] as Json)['serverInfo']).toEqual({ name: 'replay-calc', version: '1.0.0' });
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });

      await send({ jsonrpc: '2.0', id: 'sum', method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
      expect((await answerTo('sum'))['result']).toEqual({ content: [{ type: 'text', text: '2 + 3 = 5' }], structuredContent: { sum: 5 } });

      await send({ jsonrpc: '2.0', id: 'big', method: 'tools/call', params: { name: 'big', arguments: { size: 5000 } } });
      const big = JSON.stringify(await answerTo('big'));
      expect(big).toMatch(/x+…\[truncated: 5000 bytes\]/);
      await run.waitStderr(/answer to tools\/call "big" recorded as #18 is served as the log holds it, a shortened copy of 5073 bytes.*--max-log-bytes 5120/);

      // the server asked the client for sampling before answering; so does the mock, and it waits
      await send({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask', arguments: { question: 'q?' } } });
      const sampling = await waitFor(() => lines().find((m) => m['method'] === 'sampling/createMessage'), 10_000, 'the sampling request');
      expect(lines().some((m) => m['id'] === 'ask')).toBe(false);
      await send({ jsonrpc: '2.0', id: sampling['id'], result: { model: 'x', role: 'assistant', content: { type: 'text', text: 'live' } } });
      expect((await answerTo('ask'))['result']).toEqual({ content: [{ type: 'text', text: 'the client said: CANNED' }] });

      await send({ jsonrpc: '2.0', id: 'nope', method: 'resources/list' });
      expect(((await answerTo('nope'))['error'] as Json)['code']).toBe(-32601);
      await run.waitStderr('no recorded answer for resources/list');

      run.child.stdin.end();
      const { code } = await run.exited(10_000);
      expect(code).toBe(0);
      // every stdout line parsed as JSON above; every stderr line is mcp-tap's
      expect(run.stderr().trim().split('\n').every((l) => l.startsWith('mcp-tap: mock: '))).toBe(true);
    } finally {
      run.kill();
    }
  }, 30_000);

  it('refuses --session all and a file that is not a log, with exit 2', async () => {
    const all = runTap(['mock', LOG, '--session', 'all']);
    const notLog = runTap(['mock', join(ROOT, 'package.json')]);
    const [a, b] = await Promise.all([all.exited(10_000), notLog.exited(10_000)]);
    expect(a.code).toBe(2);
    expect(all.stderr()).toContain('mock works on one session');
    expect(b.code).toBe(2);
    expect(notLog.stderr()).toContain('is not an mcp-tap log');
    expect(all.stdout().length + notLog.stdout().length).toBe(0);
  }, 20_000);
});
