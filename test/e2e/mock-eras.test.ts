/**
 * `mcp-tap mock` meets real clients of the other protocol era as the recorded server would (issue 28 §4).
 * - A TypeScript-SDK session with server-everything (handshake era), served to dual-era clients that
 *   open with server/discover — the official Python SDK client (mcp 2.3.0) and a Node client that does
 *   the same (test/fixtures/clients/dual-era-client.mjs): each sees through the mock what it sees from
 *   the real server.
 * - A Python-SDK session (stateless, 2026-07-28: server/discover and _meta) served to the TypeScript SDK
 *   client, which opens with initialize: it sees through the mock what it sees from the real (dual-era)
 *   Python server; without the recorded server/discover answer the mock refuses it, naming the mismatch.
 * The Python SDK comes from `npm run setup:python` (.ci/run runs it).
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, EVERYTHING, ROOT, tempDir } from '../helpers/paths.js';
import { describeWithPython, PY_FIXTURES, PYTHON, pythonSdkTests } from '../helpers/python-sdk.js';

const exec = promisify(execFile);
const MODE = pythonSdkTests();
const DUAL_ERA = join(ROOT, 'test', 'fixtures', 'clients', 'dual-era-client.mjs');

const withPython = describeWithPython('mock across eras with the Python SDK', 'mock-eras.test.ts');

interface TsSeen {
  protocolVersion?: string;
  serverInfo: unknown;
  capabilities: unknown;
  instructions?: string;
  tools: string[];
  echo: unknown;
}

/** The TypeScript SDK client against `command args`: connect, list tools, echo "hi". */
async function tsClient(command: string, args: string[]): Promise<{ seen?: TsSeen; error?: string; stderr: string }> {
  const transport = new StdioClientTransport({ command, args, env: { ...(process.env as Record<string, string>) }, stderr: 'pipe', cwd: ROOT });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'ts-era-client', version: '1.0.0' }, { capabilities: {} });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    const seen: TsSeen = { serverInfo: client.getServerVersion(), capabilities: client.getServerCapabilities(), tools, echo };
    const instructions = client.getInstructions();
    if (instructions !== undefined) seen.instructions = instructions;
    return { seen, stderr };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), stderr };
  } finally {
    await client.close();
  }
}

/** A client process that prints one JSON line (the Python client, the Node dual-era client). */
async function jsonClient(file: string, args: string[]): Promise<{ seen: Record<string, unknown>; stderr: string }> {
  const r = await exec(file, args, { cwd: ROOT, timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });
  return { seen: JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>, stderr: r.stderr };
}

let dir: string;
let cleanup: () => void;
let tsLog: string;
let pyLog: string;
const mock = (log: string) => [CLI, 'mock', log];
const PY_CLIENT = join(PY_FIXTURES, 'client.py');
const PY_SERVER = join(PY_FIXTURES, 'echo_server.py');
/** What each client sees from the real servers, directly (run once, beside the recordings). */
let direct: { node: Awaited<ReturnType<typeof jsonClient>>; py?: Awaited<ReturnType<typeof jsonClient>>; tsOfPy?: Awaited<ReturnType<typeof tsClient>> };

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('mcp-tap-mock-eras-'));
  tsLog = join(dir, 'ts-everything.jsonrpc.log');
  pyLog = join(dir, 'py-echo.jsonrpc.log');
  const python = MODE === 'run';
  const [t, p, node, py, tsOfPy] = await Promise.all([
    tsClient(process.execPath, [CLI, '--log', tsLog, '--', process.execPath, EVERYTHING, 'stdio']),
    python ? jsonClient(PYTHON, [PY_CLIENT, process.execPath, CLI, '--log', pyLog, '--', PYTHON, PY_SERVER]) : undefined,
    jsonClient(process.execPath, [DUAL_ERA, process.execPath, EVERYTHING, 'stdio']),
    python ? jsonClient(PYTHON, [PY_CLIENT, process.execPath, EVERYTHING, 'stdio']) : undefined,
    python ? tsClient(PYTHON, [PY_SERVER]) : undefined,
  ]);
  expect(t.seen?.tools).toContain('echo');
  if (p) expect(p.seen).toMatchObject({ protocolVersion: '2026-07-28', echo: ['echo: hi'] });
  direct = { node, ...(py ? { py } : {}), ...(tsOfPy ? { tsOfPy } : {}) };
}, 60_000);
afterAll(() => cleanup());

describe('the mock of a TypeScript-SDK session (handshake era), a client that opens with server/discover', () => {
  it('the Node dual-era client sees through the mock what it sees from the real server', async () => {
    const real = direct.node;
    const mocked = await jsonClient(process.execPath, [DUAL_ERA, process.execPath, ...mock(tsLog)]);
    expect(real.seen).toMatchObject({ probe: -32601, probeMessage: 'Method not found', protocolVersion: '2025-11-25', echo: 'Echo: hi' });
    expect(mocked.seen).toEqual(real.seen);
    expect(mocked.stderr).toContain('mcp-tap: mock: server/discover refused with -32601, as the recorded server (handshake era, 2025-11-25) refuses it: the client falls back to initialize');
  });

  withPython('with the Python SDK client', () => {
    it('sees through the mock what it sees from the real server', async () => {
      const real = direct.py!;
      const mocked = await jsonClient(PYTHON, [PY_CLIENT, process.execPath, ...mock(tsLog)]);
      expect(real.seen).toMatchObject({ protocolVersion: '2025-11-25', echo: ['Echo: hi'] });
      expect(mocked.seen).toEqual(real.seen);
      expect(mocked.stderr).toContain('server/discover refused with -32601, as the recorded server (handshake era, 2025-11-25) refuses it');
    });
  });
});

withPython('the mock of a Python-SDK session (stateless), the TypeScript SDK client (initialize)', () => {
  it('sees through the mock what it sees from the real dual-era server', async () => {
    const real = direct.tsOfPy!;
    const mocked = await tsClient(process.execPath, mock(pyLog));
    expect(real.error).toBeUndefined();
    expect(real.seen).toMatchObject({ serverInfo: { name: 'py-echo' }, tools: ['echo'] });
    expect(mocked.error, mocked.stderr).toBeUndefined();
    expect(mocked.seen).toEqual(real.seen);
    expect(mocked.stderr).toMatch(/mcp-tap: mock: the recording is stateless \(2026-07-28\): a client that opens with initialize is answered from the recorded server\/discover result/);
    expect(mocked.stderr).toMatch(/mcp-tap: mock: initialize \(2025-11-25\) answered from the recorded server\/discover result #\d+ with 2025-11-25/);
  });

  it('without the recorded server/discover answer the mock says at start-up it will refuse, and refuses initialize naming the mismatch', async () => {
    const noDiscover = join(dir, 'py-no-discover.jsonrpc.log');
    const lines = readFileSync(pyLog, 'utf8').split('\n').filter((l) => l !== '');
    const discoverSeq = lines.map((l) => JSON.parse(l) as { seq: number; method?: string; kind: string }).find((r) => r.kind === 'request' && r.method === 'server/discover')!.seq;
    writeFileSync(noDiscover, `${lines.filter((l) => { const r = JSON.parse(l) as { seq: number; reqSeq?: number }; return r.seq !== discoverSeq && r.reqSeq !== discoverSeq; }).join('\n')}\n`);
    const r = await tsClient(process.execPath, [CLI, 'mock', '-q', noDiscover]);
    expect(r.seen).toBeUndefined();
    expect(r.error).toContain('the recorded server speaks 2026-07-28 (stateless, no initialize) and the recording has no server/discover answer to answer initialize from; this client opened with initialize (2025-11-25), the handshake era');
    expect(r.stderr).toContain('mcp-tap: mock: the recording is stateless (2026-07-28) and has no server/discover answer: a client that opens with initialize (the handshake era) will be refused');
  });
});
