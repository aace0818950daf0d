/**
 * Live --otlp against a receiver that is down, stalled (accepts, never answers) or answering 503: the
 * relay stays byte-exact in both directions, the log counts every lost span in sink-gap records before
 * its end record, stderr gets one warning, and mcp-tap still exits promptly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';
import { fixture } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

const box = tapSandbox('mcp-tap-otlp-faults-');
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

let server: http.Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function listen(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

/**
 * Through `mcp-tap --otlp url -- cat`: requests each followed by a response with the same id, so the
 * echoed response answers the host's request (a span finished during the session); junk too (invalid
 * UTF-8, a 1.4 MB line, a torn last line).
 */
function input(): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < 200; i++) {
    parts.push(Buffer.from(`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"t${i % 7}"}}\n`));
    parts.push(Buffer.from(`{"jsonrpc":"2.0","id":${i},"result":{"content":[]}}\n`));
  }
  parts.push(Buffer.from(`{"jsonrpc":"2.0","method":"x","params":{"blob":"${randomBytes(1024 * 1024).toString('base64')}"}}\n`));
  parts.push(Buffer.from([0xff, 0xfe, 0x0a, 0xc3]), Buffer.from('\r\nlast line without LF'));
  return Buffer.concat(parts);
}

async function relayWith(url: string, name: string) {
  const data = input();
  const shaFile = join(box.dir, `${name}.sha`);
  const log = join(box.dir, `${name}.log`);
  const r = box.track(runTap(['--log', log, '--otlp', url, '--', process.execPath, fixture('cat.mjs')], { env: { TAP_SHA_FILE: shaFile } }));
  for (let i = 0; i < data.length; i += 64 * 1024) await r.write(data.subarray(i, i + 64 * 1024));
  r.child.stdin.end();
  const t0 = Date.now();
  const { code } = await r.exited(20_000);
  const [serverSha] = readFileSync(shaFile, 'utf8').trim().split(' ');
  return { data, out: r.stdout(), serverSha, code, recs: readRecords(log), stderr: r.stderr(), exitMs: Date.now() - t0 };
}

function expectCountedLoss(res: Awaited<ReturnType<typeof relayWith>>): void {
  expect(res.code).toBe(0);
  expect(sha(res.out)).toBe(sha(res.data));
  expect(res.serverSha).toBe(sha(res.data));
  // spans of answered requests end during the session; the rest (cat's echoed requests, never answered,
  // and the session root) end with the end record, when only stderr's one warning can tell
  const answered = res.recs.filter((r) => r.kind === 'response' && typeof r['reqSeq'] === 'number' && r['method'] === 'tools/call').length;
  expect(answered).toBe(200);
  const gaps = res.recs.filter((r) => r.event === 'sink-gap');
  expect(gaps.length).toBeGreaterThan(0);
  for (const g of gaps) expect(g['sink']).toBe('otlp');
  expect(gaps.reduce((n, g) => n + Number(g['lost']), 0)).toBe(answered);
  const endAt = res.recs.findIndex((r) => r.event === 'end');
  expect(endAt).toBe(res.recs.length - 1);
  expect(res.recs.filter((r) => r.event === 'gap')).toEqual([]);
  const warnings = tapLines(res.stderr).filter((l) => /OTLP/.test(l));
  expect(warnings).toHaveLength(1);
  // flush before the end record and close after it are bounded (1 s each); the rest is process exit
  expect(res.exitMs).toBeLessThan(15_000);
}

describe('--otlp with a failing receiver', () => {
  it('receiver down (connection refused)', async () => {
    const url = await listen(() => {});
    await new Promise<void>((r) => server!.close(() => r()));
    server = null;
    const res = await relayWith(url, 'down');
    expectCountedLoss(res);
    expect(tapLines(res.stderr).join('\n')).toMatch(/ECONNREFUSED/);
  });

  it('receiver stalled (never answers)', async () => {
    const url = await listen(() => {
      // holds every request open
    });
    const res = await relayWith(url, 'stalled');
    expectCountedLoss(res);
  });

  it('receiver answering 503', async () => {
    let posts = 0;
    const url = await listen((req, res) => {
      posts++;
      req.resume();
      res.writeHead(503, { 'retry-after': '0' }).end();
    });
    const res = await relayWith(url, 'unavailable');
    expectCountedLoss(res);
    expect(posts).toBeGreaterThan(1); // retried
    expect(tapLines(res.stderr).join('\n')).toMatch(/HTTP 503/);
  });
});
