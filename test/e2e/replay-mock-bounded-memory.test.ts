/**
 * `mcp-tap mock` and `mcp-tap replay` keep a recorded session as an index of its messages, not the
 * messages: on a log of 12,000 tools/call round trips with 4 KB of text each way (~100 MB, more than
 * the whole heap) each runs in a child whose V8 heap is capped at 48 MB — holding the parsed session,
 * they ran out of heap on it. The mock, driven by the SDK's client over stdio, answers calls from the
 * start, middle and end of the session with their recorded answers (exact params first, then the same
 * tool); the replay plays every call against the bench's echo server and finds every answer the same,
 * and on the all-error version of the log (every recorded answer an error, every live one a result) finds
 * every answer different — listing the first LISTED_FAILURES, counting the rest — in the same heap.
 * `--only` of every call (12,000 chosen) runs in the same heap too: a selection whose lines each held a
 * copy of the requests sent before them ran out of it.
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
import { KEPT_VALUE_BYTES, LISTED_FAILURES, LISTED_OTHERS } from '../../src/replay/report-rows.js';

const PAIRS = 12_000;
const PAYLOAD = 4096;
const HEAP = 48;
const payload = (i: number): string => `${i}:${'x'.repeat(PAYLOAD)}`;

let dir: string;
let cleanup: () => void;
let log: string;
let errorLog: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-replay-mem-'));
  log = join(dir, 'large.jsonrpc.log');
  errorLog = join(dir, 'all-errors.jsonrpc.log');
  await writeLargeLog(log, { pairs: PAIRS, payloadBytes: PAYLOAD });
  await writeLargeLog(errorLog, { pairs: PAIRS, payloadBytes: PAYLOAD, errorEvery: 1 });
}, 60_000);

interface Report {
  mode: string;
  summary: Record<string, number>;
  notListed?: Record<string, number>;
  entries: Array<{ status: string; method?: string; id?: number; differences?: Array<{ path: string; op: string; replayed?: unknown }> }>;
}

function replay(file: string, ...selection: string[]): { status: number | null; stderr: string; report: Report } {
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP}`, CLI, 'replay', file, ...selection, '--no-log', '--json', '--ignore', 'result.capabilities.logging', '--ignore', 'result.serverInfo.name', '--', process.execPath, join(ROOT, 'bench', 'echo-server.mjs')],
    { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
  );
  let report: Report;
  try {
    report = JSON.parse(r.stdout) as Report;
  } catch {
    throw new Error(`no JSON report (exit ${r.status}, ${r.signal ?? 'no signal'}); stderr: ${r.stderr.slice(-800)}`);
  }
  return { status: r.status, stderr: r.stderr, report };
}
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
    const { status, stderr, report } = replay(log);
    expect(status, stderr.slice(-800)).toBe(0);
    expect(report.summary).toMatchObject({ same: PAIRS + 1, different: 0, missing: 0, unexpected: 0, notReplayed: 0 });
    // initialize and the first calls are listed, the rest counted
    expect(report.entries.filter((e) => e.method === 'tools/call' && e.status === 'same')).toHaveLength(LISTED_OTHERS - 1);
    expect(report.notListed).toMatchObject({ same: PAIRS + 1 - LISTED_OTHERS, different: 0 });
  }, 150_000);

  it('replay --only of every call: the handshake, then every call, one after the other, every answer the same', () => {
    const { status, stderr, report } = replay(log, '--only', 'echo');
    expect(status, stderr.slice(-800)).toBe(0);
    expect(report.mode).toBe('selected');
    expect(report.summary).toMatchObject({ same: PAIRS + 1, different: 0, missing: 0, unexpected: 0, notReplayed: 0 });
    expect(report.notListed).toMatchObject({ same: PAIRS + 1 - LISTED_OTHERS, different: 0 });
  }, 150_000);

  it('replay of the all-error session: every answer different, the first ones listed, the rest counted', () => {
    const { status, stderr, report } = replay(errorLog);
    expect(status, stderr.slice(-800)).toBe(1);
    expect(report.summary).toMatchObject({ same: 1, different: PAIRS, missing: 0, unexpected: 0, notReplayed: 0 });
    expect(report.notListed).toMatchObject({ same: 0, different: PAIRS - LISTED_FAILURES });
    const listed = report.entries.filter((e) => e.method === 'tools/call');
    expect(listed.map((e) => e.id)).toEqual(Array.from({ length: LISTED_FAILURES }, (_, k) => k + 1));
    for (const e of listed) {
      expect(e.status).toBe('different');
      expect(e.differences!.map((d) => `${d.op} ${d.path}`)).toEqual(['removed error', 'added result']);
      expect(JSON.stringify(e.differences).length).toBeLessThan(2 * KEPT_VALUE_BYTES + 500);
    }
  }, 150_000);
});
