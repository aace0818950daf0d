/**
 * Secret values stay out of the log and the sinks beside it when the server writes a line in pieces
 * (issue 27): the observer joins the pieces into one line before the masking sink sees it, whatever the
 * cut (inside the value, inside a \u escape), on stdout and stderr alike.
 */
import { describe, expect, it } from 'vitest';
import { Observer } from '../../src/proxy/observer.js';
import { MaskingSink } from '../../src/proxy/masking-sink.js';
import { MaskingTap } from '../../src/proxy/masking-tap.js';
import { EnvMasker } from '../../src/log/env-mask.js';
import { serializeRecord } from '../../src/log/serialize.js';
import type { RecordTap, TappedRecord } from '../../src/log/record-tap.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';
import { memorySink } from '../helpers/memory-sink.js';

const SECRET = 's3cr&t<pw>42';
const masker = new EnvMasker([{ name: 'DB_PASSWORD', value: SECRET }]);

function memoryTap(): RecordTap & { lines: string[] } {
  const lines: string[] = [];
  return {
    name: 'mem',
    lines,
    record: (r: TappedRecord) => void lines.push(serializeRecord(r.record, r.msgText ?? r.msgBytes?.toString('utf8'))),
    takeLoss: () => null,
    flush: async () => {},
    close: async () => {},
  };
}

/** Runs one observer over the pieces; resolves with the log text and what the tap beside it got. */
async function observe(stdout: Buffer[], stderr: Buffer[]): Promise<{ log: string; tapped: string }> {
  const file = memorySink();
  const tap = memoryTap();
  const o = new Observer({ sessionId: 's', maxLogBytes: 1 << 20, sink: new MaskingSink(file, masker), taps: [new MaskingTap(tap, masker)], warn: () => {}, shortener: jsonShortener, now: () => 1 });
  for (const c of stdout) o.take('server', c, 1);
  for (const c of stderr) o.take('stderr', c, 1);
  await o.finish();
  return { log: file.text(), tapped: tap.lines.join('') };
}

describe('a secret in a line the server writes in pieces', () => {
  const go = Buffer.from(`{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"login failed for s3cr\\u0026t\\u003cpw\\u003e42"}}\n`);
  const err = Buffer.from(`connecting with password=${SECRET} failed\n`);
  const first = go.indexOf('s3cr');

  it('is masked in the log and in the tap, cut at every byte of its spelling', async () => {
    for (let cut = first; cut <= first + 32; cut++) {
      const at = err.indexOf(SECRET) + ((cut - first) % SECRET.length);
      const { log, tapped } = await observe([go.subarray(0, cut), go.subarray(cut)], [err.subarray(0, at), err.subarray(at)]);
      for (const out of [log, tapped]) {
        expect(out).not.toContain('s3cr');
        const recs = out.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; msg?: { error: { message: string } }; raw?: string });
        expect(recs.find((r) => r.kind === 'error')!.msg!.error.message).toBe('login failed for [REDACTED:env DB_PASSWORD]');
        expect(recs.find((r) => r.kind === 'stderr')!.raw).toBe('connecting with password=[REDACTED:env DB_PASSWORD] failed');
      }
    }
  });

  it('is masked when every byte arrives alone', async () => {
    const { log, tapped } = await observe([...go].map((b) => Buffer.of(b)), [...err].map((b) => Buffer.of(b)));
    expect(log).toContain('[REDACTED:env DB_PASSWORD]');
    expect(log).not.toContain('s3cr');
    expect(tapped).not.toContain('s3cr');
  });
});

describe('MaskingSink: both ways a record reaches it', () => {
  const body = Buffer.from('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"bad s3cr\\u0026t\\u003cpw\\u003e42"}}');
  const head = '{"v":1,"seq":2,"kind":"error","msg":';
  const want = { v: 1, seq: 2, kind: 'error', msg: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'bad [REDACTED:env DB_PASSWORD]' } } };

  it('masks the message bytes of a head + body write', () => {
    const file = memorySink();
    new MaskingSink(file, masker).write(head, body);
    expect(JSON.parse(file.text())).toEqual(want);
  });

  it('masks the message bytes of a record + body write', () => {
    const file = memorySink();
    const record = { v: 1, seq: 2, kind: 'error' } as unknown as Parameters<MaskingSink['writeRecord']>[0];
    new MaskingSink(file, masker).writeRecord(record, body);
    expect(JSON.parse(file.text())).toMatchObject({ msg: want.msg });
  });

  it('masks a secret whose only escapes are \\/ in the message bytes, both ways', () => {
    const slashy = new EnvMasker([{ name: 'DB_PASSWORD', value: 'pw/with/slashes' }]);
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"dsn":"db:pw\\/with\\/slashes"}}');
    const viaWrite = memorySink();
    new MaskingSink(viaWrite, slashy).write(head, bytes);
    const viaRecord = memorySink();
    new MaskingSink(viaRecord, slashy).writeRecord({ v: 1, seq: 2, kind: 'error' } as unknown as Parameters<MaskingSink['writeRecord']>[0], bytes);
    for (const out of [viaWrite.text(), viaRecord.text()]) {
      expect((JSON.parse(out) as { msg: { result: { dsn: string } } }).msg.result.dsn).toBe('db:[REDACTED:env DB_PASSWORD]');
    }
  });

  it('passes a record without a secret through untouched', () => {
    const file = memorySink();
    const clean = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"t":"a\\u0026b"}}');
    new MaskingSink(file, masker).write(head, clean);
    expect(file.text()).toBe(`${head}${clean.toString('utf8')}}\n`);
  });
});
