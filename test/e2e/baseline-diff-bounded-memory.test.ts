/**
 * baseline save and diff stay bounded when every record is bad, as the other readers do
 * (readers-sick-session.test.ts): on a log of 30,000 tools/call round trips where the client never sent
 * initialize (every request carries a before-initialize finding) and the server answers every call with
 * an error, each runs in a child whose V8 heap is capped at 24 MB — with every request kept for its
 * latency they ran out of heap on it even in 48 MB. The latency medians are the exact nearest-rank ones
 * (computed here from the generator's formula) and the finding counts exact. `mcp-tap mcp`'s
 * diff_sessions reads both sessions the same way (src/mcp/reader.ts), in a 24 MB heap too.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain ESM script of the bench, shared with the reader bench
import { writeLargeLog } from '../../bench/gen-log.mjs';
import { runCliWithHeap, type CliRun } from '../helpers/heap-limited-cli.js';
import { CLI, tempDir } from '../helpers/paths.js';

const PAIRS = 30_000;
const HEAP = 24;

let dir: string;
let cleanup: () => void;
let sick: string;
let healthy: string;
let sickSession: string;

/** The generator's latencies, and their nearest-rank median as the baseline rounds it. */
const latencies = Array.from({ length: PAIRS }, (_, k) => 0.05 + (((k + 1) * 7919) % 1000) / 100).sort((a, b) => a - b);
const median = Math.round(latencies[Math.ceil(PAIRS / 2) - 1]! * 1000) / 1000;

/** The CLI in a child with a HEAP MB V8 heap; its output (to a file) and exit. */
const run = (args: string[]): CliRun => runCliWithHeap(args, join(dir, `out-${Math.random().toString(36).slice(2)}`), HEAP);

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-baseline-sick-'));
  sick = join(dir, 'sick.jsonrpc.log');
  healthy = join(dir, 'healthy.jsonrpc.log');
  ({ session: sickSession } = await writeLargeLog(sick, { pairs: PAIRS, payloadBytes: 128, errorEvery: 1, handshake: false, requestNote: 'before-initialize' }));
  await writeLargeLog(healthy, { pairs: PAIRS, payloadBytes: 128 });
}, 60_000);
afterAll(() => cleanup?.());

describe(`baseline save and diff in a ${HEAP} MB heap on an all-error session`, () => {
  it('baseline save: every call timed, the median exact, every finding counted', () => {
    const r = run(['baseline', 'save', sick]);
    expect(r.code, r.err).toBe(0);
    const b = JSON.parse(r.text);
    expect(b.latency).toEqual({ methods: { 'tools/call': { n: PAIRS, median } }, tools: { echo: { n: PAIRS, median } } });
    expect(b.findings).toEqual({ 'before-initialize': PAIRS });
  });

  it('diff of the session with itself: identical', () => {
    const r = run(['diff', '--format', 'json', sick, sick]);
    expect(r.code, r.err).toBe(0);
    const d = JSON.parse(r.text);
    expect(d.identical).toBe(true);
    expect(d.differences).toEqual([]);
  });

  it('diff of a healthy session with it: the finding code new in B with its count, no latency change', () => {
    const r = run(['diff', '--format', 'json', healthy, sick]);
    expect(r.code, r.err).toBe(0);
    const d = JSON.parse(r.text);
    expect(d.differences).toEqual([{ area: 'findings', kind: 'new', name: 'before-initialize', after: PAIRS }]);
    expect(d.notCompared.join('\n')).toContain('capabilities: B has no initialize answer');
  });
});

describe(`mcp-tap mcp's diff_sessions in a ${HEAP} MB heap on an all-error session`, () => {
  it('diff of the session with itself: identical, the server still up', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [`--max-old-space-size=${HEAP}`, CLI, 'mcp', '--log', sick], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: 'bounded-diff', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'diff_sessions', arguments: { a: sickSession, b: sickSession } }, undefined, { timeout: 60_000 }).catch((err: Error) => {
        throw new Error(`${err.message}; stderr: ${stderr.slice(-400)}`);
      })) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ identical: true, differencesTotal: 0 });
    } finally {
      await client.close();
    }
  }, 90_000);
});
