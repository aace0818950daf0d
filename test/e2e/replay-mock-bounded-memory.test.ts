/**
 * `mcp-tap mock` and `mcp-tap replay` keep a recorded session as an index of its messages, not the
 * messages: on a log of 12,000 tools/call round trips with 4 KB of text each way (~100 MB, more than
 * the whole heap) each runs in a child whose V8 heap is capped at 48 MB — holding the parsed session,
 * they ran out of heap on it. The mock, driven by the SDK's client over stdio, answers calls from the
 * start, middle and end of the session with their recorded answers (exact params first, then the same
 * tool); the replay plays every call against the bench's echo server and finds every answer the same.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script of the bench, shared with the reader bench
import { writeLargeLog } from '../../bench/gen-log.mjs';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';

const PAIRS = 12_000;
const PAYLOAD = 4096;
const HEAP = 48;
const payload = (i: number): string => `${i}:${'x'.repeat(PAYLOAD)}`;

let dir: string;
let cleanup: () => void;
let log: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-replay-mem-'));
  log = join(dir, 'large.jsonrpc.log');
  await writeLargeLog(log, { pairs: PAIRS, payloadBytes: PAYLOAD });
}, 60_000);
afterAll(() => cleanup?.());

describe(`mock and replay in a ${HEAP} MB heap on a session larger than the heap`, () => {
  it('mock: the SDK client gets the recorded answers from the start, middle and end of the session', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [`--max-old-space-size=${HEAP}`, CLI, 'mock', log], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'bounded-mock', version: '1.0.0' });
    await client.connect(transport).catch((err: Error) => {
      throw new Error(`${err.message}; stderr: ${stderr.slice(-600)}`);
    });
    try {
      expect(client.getServerVersion()).toEqual({ name: 'echo', version: '1.0.0' });
      const call = async (text: string): Promise<unknown> => {
        const r = (await client.callTool({ name: 'echo', arguments: { payload: text } }, undefined, { timeout: 60_000 }).catch((err: Error) => {
          throw new Error(`${err.message}; stderr: ${stderr.slice(-600)}`);
        })) as CallToolResult;
        return r.content;
      };
      for (const i of [PAIRS, 1, PAIRS / 2]) expect(await call(payload(i))).toEqual([{ type: 'text', text: payload(i) }]);
      // params never recorded: the first recorded call of the same tool not used yet (#2)
      expect(await call('never recorded')).toEqual([{ type: 'text', text: payload(2) }]);
    } finally {
      await client.close();
    }
  }, 90_000);

  it('replay: every call played against the echo server, every answer the same', () => {
    const r = spawnSync(
      process.execPath,
      [`--max-old-space-size=${HEAP}`, CLI, 'replay', log, '--no-log', '--json', '--ignore', 'result.capabilities.logging', '--ignore', 'result.serverInfo.name', '--', process.execPath, join(ROOT, 'bench', 'echo-server.mjs')],
      { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(r.status, r.stderr.slice(-800)).toBe(0);
    const report = JSON.parse(r.stdout) as { summary: Record<string, number>; entries: Array<{ status: string; method?: string }> };
    expect(report.summary).toMatchObject({ same: PAIRS + 1, different: 0, missing: 0, unexpected: 0, notReplayed: 0 });
    expect(report.entries.filter((e) => e.method === 'tools/call' && e.status === 'same')).toHaveLength(PAIRS);
  }, 150_000);
});
