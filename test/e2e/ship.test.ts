/**
 * --ship through pino transports (pino's worker thread): pino's own `pino/file` transport, resolved as a
 * package from the project, receives every record of a session exactly once and in order — its file
 * equals the log byte for byte; a transport that throws or stalls
 * costs no relay bytes, only counted sink-gap records and one warning.
 */
import { describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTap, tapLines, tapSandbox } from '../helpers/run-tap.js';
import { fixture, FIXTURES } from '../helpers/paths.js';
import { readRecords } from '../helpers/log.js';

const box = tapSandbox('mcp-tap-ship-');
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const TRANSPORTS = join(FIXTURES, '..', 'transports');

async function relay(shipArgs: string[], data: Buffer, name: string) {
  const shaFile = join(box.dir, `${name}.sha`);
  const log = join(box.dir, `${name}.log`);
  const r = box.track(runTap(['--log', log, ...shipArgs, '--', process.execPath, fixture('cat.mjs')], { env: { TAP_SHA_FILE: shaFile } }));
  for (let i = 0; i < data.length; i += 64 * 1024) await r.write(data.subarray(i, i + 64 * 1024));
  r.child.stdin.end();
  const { code } = await r.exited(30_000);
  const [serverSha] = readFileSync(shaFile, 'utf8').trim().split(' ');
  return { out: r.stdout(), serverSha, code, log, stderr: r.stderr() };
}

const lines = (n: number): Buffer =>
  Buffer.concat(Array.from({ length: n }, (_, i) => Buffer.from(`{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"é${i}"}}\n{"jsonrpc":"2.0","id":${i},"result":{}}\n`)));

describe('--ship', () => {
  it('pino/file gets every record exactly once, in order: its file is the log', async () => {
    const data = Buffer.concat([lines(300), Buffer.from([0xff, 0x0a]), Buffer.from('torn')]);
    const dest = join(box.dir, 'shipped');
    const res = await relay(['--ship', 'pino/file', '--ship-options', JSON.stringify({ destination: join(dest, 'records.log'), mkdir: true })], data, 'file');
    expect(res.code).toBe(0);
    expect(sha(res.out)).toBe(sha(data));
    const files = readdirSync(dest);
    expect(files).toEqual(['records.log']);
    const shipped = readFileSync(join(dest, files[0]!));
    const logged = readFileSync(res.log);
    expect(readRecords(res.log).length).toBe((600 + 2) * 2 + 6); // lines and junk both ways, 6 events
    expect(shipped.equals(logged)).toBe(true);
    expect(tapLines(res.stderr).filter((l) => !l.includes('logging to'))).toEqual([]);
  });

  it('a transport that throws costs no relay bytes: records counted lost, one warning', async () => {
    const data = lines(200);
    const res = await relay(['--ship', join(TRANSPORTS, 'throwing.mjs')], data, 'throwing');
    expect(res.code).toBe(0);
    expect(sha(res.out)).toBe(sha(data));
    expect(res.serverSha).toBe(sha(data));
    const recs = readRecords(res.log);
    const gaps = recs.filter((r) => r.event === 'sink-gap');
    expect(gaps.length).toBeGreaterThan(0);
    for (const g of gaps) expect([g['sink'], g['reason']]).toEqual([`ship:${join(TRANSPORTS, 'throwing.mjs')}`, 'transport-failed']);
    expect(recs.filter((r) => r.event === 'gap')).toEqual([]);
    const warnings = tapLines(res.stderr).filter((l) => !l.includes('logging to'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('planted transport failure');
  });

  it('a transport that does not exist: one warning line (no "Require stack" lines), the relay unchanged', async () => {
    const data = lines(20);
    const missing = join(box.dir, 'no-such-transport.mjs');
    const res = await relay(['--ship', missing], data, 'missing');
    expect(res.code).toBe(0);
    expect(sha(res.out)).toBe(sha(data));
    const own = res.stderr.split('\n').filter((l) => l !== '');
    expect(own.every((l) => l.startsWith('mcp-tap: ')), res.stderr).toBe(true);
    const warnings = own.filter((l) => !l.includes('logging to'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`mcp-tap: the pino transport ${missing} failed (Cannot find module `);
    expect(warnings[0]).toMatch(/no-such-transport\.mjs'\); records are not shipped, losses are counted in the log$/);
  });

  it('a transport that stalls costs no relay bytes: records past its bound counted lost, one warning', async () => {
    // ~16 MB of records: more than pino's 4 MB shared buffer and mcp-tap's 8 MB bound behind it
    const big = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${randomBytes(600 * 1024).toString('base64')}"}}\n`;
    const data = Buffer.from(big.repeat(20));
    const res = await relay(['--ship', join(TRANSPORTS, 'stalled.mjs')], data, 'stalled');
    expect(res.code).toBe(0);
    expect(sha(res.out)).toBe(sha(data));
    expect(res.serverSha).toBe(sha(data));
    const gaps = readRecords(res.log).filter((r) => r.event === 'sink-gap');
    expect(gaps.length).toBeGreaterThan(0);
    for (const g of gaps) expect(g['reason']).toBe('queue-full');
    expect(gaps.reduce((n, g) => n + Number(g['lost']), 0)).toBeGreaterThan(0);
    expect(tapLines(res.stderr).filter((l) => !l.includes('logging to'))).toHaveLength(1);
  });
});
