/**
 * Whole records and whole sessions: the planted-secrets fixture leaks nothing in any export format,
 * a PEM key printed over several stderr lines is followed across them, and the structure of a record
 * (session, seq, kinds, pairing) survives redaction.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { LogRecord } from '../../src/log/record.js';
import { jsonChunks, jsonlChunks } from '../../src/transcript/json-export.js';
import { renderMarkdown } from '../../src/transcript/markdown.js';
import { RecordRedactor, redactRecord, redactRecords } from '../../src/transcript/redact.js';
import { validateRecord } from '../../src/log/validate-record.js';
import { PLANTED_SECRETS, plantedRedactOptions, SECRETS_LOG, survivingSecrets } from '../fixtures/planted-secrets.js';

const raw = readFileSync(SECRETS_LOG, 'utf8');
const records = raw
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LogRecord);

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let s = '';
  for await (const c of chunks) s += c;
  return s;
}

describe('the planted-secrets fixture', () => {
  it('plants at least 15 distinct secrets, each really in the log', () => {
    const secrets = new Set(PLANTED_SECRETS.map((p) => p.secret));
    expect(secrets.size).toBeGreaterThanOrEqual(15);
    for (const s of secrets) expect(raw.includes(s), s).toBe(true);
  });

  it('is a valid log by the format contract', () => {
    for (const r of records) expect(validateRecord(r), `seq ${r.seq}`).toEqual([]);
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
  });

  it('covers every place: args, tool arguments, results, JSON in text, stderr, errors, notifications, invalid lines', () => {
    const places = PLANTED_SECRETS.map((p) => p.where).join('\n');
    for (const w of ['server args', 'tools/call arguments', 'result', 'JSON as text', 'stderr', 'error answer', 'notifications/message', 'invalid line']) {
      expect(places).toContain(w);
    }
  });

  const redacted = redactRecords(records, plantedRedactOptions);

  it.each([
    ['md', async () => renderMarkdown(redacted, { redacted: true, exporterVersion: 'test', maxBody: 1_000_000 })],
    ['md (default body size)', async () => renderMarkdown(redacted, { redacted: true, exporterVersion: 'test' })],
    ['json', async () => text(jsonChunks(redacted))],
    ['jsonl', async () => text(jsonlChunks(redacted))],
  ])('no planted secret survives in %s', async (_format, produce) => {
    const out = await produce();
    expect(survivingSecrets(out)).toEqual([]);
    expect(out).toContain('[REDACTED:');
  });

  it('without the user options, only the secrets that need them survive', async () => {
    const out = await text(jsonlChunks(redactRecords(records)));
    const left = PLANTED_SECRETS.filter((p) => out.includes(p.secret)).map((p) => p.rule);
    expect(left.sort()).toEqual(['--redact-env', '--redact-key internalRef', '--redact-pattern', 'environment value (secret-looking name)']);
  });

  it('keeps the structure: same records, seqs, kinds, pairing and session ids', () => {
    expect(redacted).toHaveLength(records.length);
    redacted.forEach((r, i) => {
      const o = records[i]!;
      for (const k of ['v', 'time', 'session', 'seq', 'from', 'kind', 'reqSeq', 'ms', 'bytes', 'event', 'isError'] as const) expect(r[k]).toEqual(o[k]);
    });
  });

  it('does not change the records it is given', () => {
    const copy = structuredClone(records);
    redactRecords(records, plantedRedactOptions);
    expect(records).toEqual(copy);
  });
});

describe('records', () => {
  const base = { v: 1, time: 1, session: 'session-id-stays', seq: 1 } as const;

  it('redacts the start event: command line, but not env names or the session id', () => {
    const r = redactRecord({
      ...base,
      from: 'proxy',
      kind: 'event',
      event: 'start',
      command: 'npx',
      args: ['-y', 'server', '--token', 'abc'],
      envNames: ['GITHUB_TOKEN', 'SESSION_SECRET'],
    });
    expect(r.session).toBe('session-id-stays');
    expect(r['args']).toEqual(['-y', 'server', '--token', '[REDACTED:flag:--token]']);
    expect(r['envNames']).toEqual(['GITHUB_TOKEN', 'SESSION_SECRET']);
  });

  it('redacts raw, notes, target and string ids with the text rules', () => {
    const r = redactRecord({
      ...base,
      from: 'server',
      kind: 'response',
      id: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
      target: 'https://u:p@h/x',
      notes: [{ code: 'unknown-id', text: 'answer to id "ghp_0123456789abcdefghijABCDEFGHIJ012345"' }],
    });
    expect(r.id).toBe('[REDACTED:github-token]');
    expect(r.target).toBe('https://[REDACTED:url-credentials]@h/x');
    expect(r.notes).toEqual([{ code: 'unknown-id', text: 'answer to id "[REDACTED:github-token]"' }]);
  });

  it('follows a PEM private key over several stderr lines, per stream', () => {
    const lines = ['before', '-----BEGIN PRIVATE KEY-----', 'AAAA1111', 'BBBB2222', '-----END PRIVATE KEY----- then api_key=zz', 'after'];
    const rr = new RecordRedactor();
    const out: string[] = [];
    lines.forEach((raw, i) => {
      out.push(rr.next({ ...base, seq: i + 1, from: 'server', kind: 'stderr', raw }).raw as string);
      // a stdout line in between belongs to another stream and is not swallowed
      if (i === 2) expect(rr.next({ ...base, seq: 100, from: 'server', kind: 'invalid', raw: 'plain stdout' }).raw).toBe('plain stdout');
    });
    expect(out).toEqual([
      'before',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '[REDACTED:private-key]',
      '[REDACTED:private-key] then api_key=[REDACTED:key:api_key]',
      'after',
    ]);
  });
});
