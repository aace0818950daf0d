/**
 * A line longer than the log limit is kept shortened, its long strings cut: when the cut falls inside a
 * secret environment value, the first characters of the secret (3 or more) that the cut left are masked
 * too, in the log and in the taps beside it — in a JSON message, a stdout line that is not JSON and a
 * stderr line alike.
 */
import { describe, expect, it } from 'vitest';
import { Observer, type RecordSink } from '../../src/proxy/observer.js';
import { MaskingSink } from '../../src/proxy/masking-sink.js';
import { MaskingTap } from '../../src/proxy/masking-tap.js';
import { CUT_PREFIX, EnvMasker } from '../../src/log/env-mask.js';
import { serializeRecord } from '../../src/log/serialize.js';
import type { RecordTap, TappedRecord } from '../../src/log/record-tap.js';
import { jsonShortener } from '../../src/framing/json-shortener.js';

const SECRET = 'Zq9&Wv<Tk>3pL8xR';
const masker = new EnvMasker([{ name: 'API_TOKEN', value: SECRET }]);
const LIMIT = 2048;

async function observe(stdout: string, stderr: string): Promise<{ log: string; tapped: string }> {
  const parts: string[] = [];
  const file: RecordSink = {
    write(text, body) {
      parts.push(body === undefined ? text : `${text}${body.toString('utf8')}}\n`);
      return true;
    },
    takeLoss: () => null,
    close: () => {},
  };
  const lines: string[] = [];
  const tap: RecordTap = {
    name: 'mem',
    record: (r: TappedRecord) => void lines.push(serializeRecord(r.record, r.msgText ?? r.msgBytes?.toString('utf8'))),
    takeLoss: () => null,
    flush: async () => {},
    close: async () => {},
  };
  const o = new Observer({ sessionId: 's', maxLogBytes: LIMIT, sink: new MaskingSink(file, masker), taps: [new MaskingTap(tap, masker)], warn: () => {}, shortener: jsonShortener, now: () => 1 });
  o.take('server', Buffer.from(stdout), 1);
  o.take('stderr', Buffer.from(stderr), 1);
  await o.finish();
  return { log: parts.join(''), tapped: lines.join('') };
}

/** Every record the observer wrote, parsed. */
const records = (text: string): Array<Record<string, unknown>> => text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a secret cut by the shortening of an over-long line', () => {
  /** The line kinds, each as the text the server writes around `text`, and where its kept head is. */
  const kinds = {
    json: (text: string) => `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":${JSON.stringify(text).replaceAll('&', '\\u0026').replaceAll('<', '\\u003c')}}]}}\n`,
    banner: (text: string) => `banner ${text}\n`,
  };
  const keptOf = (recs: Array<Record<string, unknown>>): number[] => {
    const json = ((recs[0]!['msg'] as { result: { content: Array<{ text: string }> } }).result.content[0]!.text).indexOf('…[truncated:');
    return [json, (recs[1]!['raw'] as string).length - 'banner '.length, (recs[2]!['raw'] as string).length];
  };

  it('leaves none of its first characters in the log or the taps, wherever the cut falls', async () => {
    const plain = 'x'.repeat(8 * LIMIT);
    const kept = keptOf(records((await observe(kinds.json(plain) + kinds.banner(plain), `${plain}\n`)).log));
    let cutInside = 0;
    for (const at of kept) {
      for (let pad = at - SECRET.length + 1; pad < at; pad++) {
        const text = `${'x'.repeat(pad)}${SECRET}${'y'.repeat(8 * LIMIT)}`;
        const { log, tapped } = await observe(kinds.json(text) + kinds.banner(text), `${text}\n`);
        for (const out of [log, tapped]) {
          expect(records(out).filter((r) => r['truncated'] === true).length).toBe(3);
          expect(out).not.toContain(SECRET.slice(0, CUT_PREFIX));
          if (out.includes('[REDACTED:env API_TOKEN]')) cutInside++;
        }
      }
    }
    // each kind's cut fell inside the secret for the pads where the head keeps CUT_PREFIX characters or more
    expect(cutInside).toBeGreaterThanOrEqual(2 * 3 * (SECRET.length - CUT_PREFIX));
  });

  it('masks the first 3 characters of a secret left at a cut, and leaves 2 as they are', async () => {
    const cutAt = (n: number) => (JSON.parse(masker.maskLine(`${JSON.stringify({ v: 1, kind: 'stderr', truncated: true, raw: `abc ${SECRET.slice(0, n)}` })}\n`)) as { raw: string }).raw;
    expect(cutAt(3)).toBe('abc [REDACTED:env API_TOKEN]');
    expect(cutAt(2)).toBe(`abc ${SECRET.slice(0, 2)}`);
  });

  it('leaves a record that is not shortened as it was, also when a member is named truncated', () => {
    const line = `${JSON.stringify({ v: 1, kind: 'stderr', raw: `token ${SECRET.slice(0, 6)}`, msg: { truncated: true } })}\n`;
    expect(masker.maskLine(line)).toBe(line);
  });
});
