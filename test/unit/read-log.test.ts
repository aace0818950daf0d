import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { findLatestLog, listLogs } from '../../src/log/log-files.js';
import { LogNotUsable, readRecords, TORN_LAST_LINE, type ReadItem, type WarningItem } from '../../src/log/read-log.js';
import { readSession, resolveSession } from '../../src/log/read-session.js';
import { listSessions } from '../../src/log/session-summary.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcp-tap-read-log-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let fileNo = 0;
async function logFile(content: string | Buffer, name = `t${++fileNo}.jsonrpc.log`): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const T0 = 1_760_000_000_000;

/** A record by hand, following src/log/record.ts. */
function rec(session: string, seq: number, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ v: 1, time: T0 + seq * 10, session, seq, from: 'proxy', kind: 'event', ...fields });
}

/** A small, complete session: start, spawn, a paired request, an error, a finding, exit, end. */
function session(id: string, opts: { t?: number; code?: number | null; signal?: string | null; end?: boolean } = {}): string[] {
  const t = opts.t ?? T0;
  const lines = [
    { seq: 1, time: t, from: 'proxy', kind: 'event', event: 'start', name: `srv-${id}`, command: 'node', args: ['server.js', '--x'], cwd: '/tmp', pid: 1 },
    { seq: 2, time: t + 5, from: 'proxy', kind: 'event', event: 'spawn', serverPid: 2 },
    { seq: 3, time: t + 10, from: 'client', kind: 'request', id: 1, method: 'tools/call', target: 'echo', msg: { jsonrpc: '2.0', id: 1, method: 'tools/call' } },
    { seq: 4, time: t + 20, from: 'server', kind: 'response', id: 1, method: 'tools/call', reqSeq: 3, ms: 10, isError: true },
    { seq: 5, time: t + 30, from: 'client', kind: 'request', id: 2, method: 'nope' },
    { seq: 6, time: t + 40, from: 'server', kind: 'error', id: 2, method: 'nope', reqSeq: 5, ms: 10 },
    { seq: 7, time: t + 50, from: 'server', kind: 'invalid', raw: 'hello', notes: [{ code: 'stdout-not-json', text: 'x' }] },
    { seq: 8, time: t + 55, from: 'server', kind: 'stderr', raw: 'log line' },
    { seq: 9, time: t + 60, from: 'server', kind: 'batch', items: [{ kind: 'error', id: 3 }, { kind: 'response', id: 4, isError: true }], notes: [{ code: 'batch-not-allowed', text: 'y' }] },
    { seq: 10, time: t + 70, from: 'proxy', kind: 'event', event: 'exit', code: opts.code === undefined ? 0 : opts.code, signal: opts.signal ?? null },
  ];
  if (opts.end !== false) lines.push({ seq: 11, time: t + 80, from: 'proxy', kind: 'event', event: 'end', pending: [] } as never);
  return lines.map((l) => JSON.stringify({ v: 1, session: id, ...l }));
}

async function collect(it: AsyncIterable<ReadItem>): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function collectRecords<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

const warnings = (items: ReadItem[]) => items.filter((i): i is WarningItem => 'warning' in i);
const records = (items: ReadItem[]) => items.flatMap((i) => ('record' in i ? [i.record] : []));

describe('readRecords', () => {
  it('reads every record with its line number, CRLF and blank lines tolerated', async () => {
    const path = await logFile(`${rec('a', 1)}\r\n\n${rec('a', 2)}\n   \n${rec('a', 3)}\n`);
    const items = await collect(readRecords(path));
    expect(warnings(items)).toEqual([]);
    expect(items.map((i) => ('record' in i ? [i.record.seq, i.line] : null))).toEqual([
      [1, 1],
      [2, 3],
      [3, 5],
    ]);
  });

  it('keeps unknown fields and accepts records of a newer format version', async () => {
    const path = await logFile(
      [rec('a', 1, { future: { x: 1 } }), JSON.stringify({ v: 99, time: T0, session: 'a', seq: 2, from: 'relay', kind: 'hologram', extra: [1] })].join('\n') + '\n',
    );
    const rs = records(await collect(readRecords(path)));
    expect(rs).toHaveLength(2);
    expect(rs[0]!['future']).toEqual({ x: 1 });
    expect(rs[1]).toMatchObject({ v: 99, from: 'relay', kind: 'hologram', extra: [1] });
  });

  it('reports a torn last line as incomplete, after the records before it', async () => {
    const path = await logFile(`${rec('a', 1)}\n${rec('a', 2)}\n${rec('a', 3).slice(0, 25)}`);
    const items = await collect(readRecords(path));
    expect(records(items).map((r) => r.seq)).toEqual([1, 2]);
    expect(items.at(-1)).toEqual({ warning: TORN_LAST_LINE, line: 3 });
    expect(TORN_LAST_LINE).toBe('last line is incomplete (still being written?)');
  });

  it('accepts a last line without LF when it is a whole record', async () => {
    const path = await logFile(`${rec('a', 1)}\n${rec('a', 2)}`);
    const items = await collect(readRecords(path));
    expect(records(items).map((r) => r.seq)).toEqual([1, 2]);
    expect(warnings(items)).toEqual([]);
  });

  it('treats a file whose only line is a record being written as a log, not as foreign', async () => {
    const path = await logFile(rec('a', 1).slice(0, 30));
    expect(await collect(readRecords(path))).toEqual([{ warning: TORN_LAST_LINE, line: 1 }]);
  });

  it('warns about foreign lines among records and goes on', async () => {
    const path = await logFile([rec('a', 1), 'plain text \x1b[31mred', '{"level":30,"msg":"pino"}', '[1,2]', '{broken', rec('a', 2)].join('\n') + '\n');
    const items = await collect(readRecords(path));
    expect(records(items).map((r) => r.seq)).toEqual([1, 2]);
    const ws = warnings(items);
    expect(ws.map((w) => w.line)).toEqual([2, 3, 4, 5]);
    expect(ws[0]!.warning).toMatch(/^not an mcp-tap record/);
    expect(ws[0]!.warning).toContain('\\x1b[31m');
    expect(ws[1]!.warning).toMatch(/^not an mcp-tap record/);
    expect(ws[3]!.warning).toMatch(/^not JSON/);
    for (const w of ws) expect(w.warning).not.toMatch(/[\x00-\x1f\x7f]/);
  });

  it('yields warnings for a few junk lines before the first record, in order', async () => {
    const path = await logFile(['junk 1', 'junk 2', rec('a', 1)].join('\n') + '\n');
    const items = await collect(readRecords(path));
    expect(items.map((i) => i.line)).toEqual([1, 2, 3]);
    expect('warning' in items[0]!).toBe(true);
    expect('record' in items[2]!).toBe(true);
  });

  it('refuses a file that is not an mcp-tap log, showing its first line safely', async () => {
    const path = await logFile('{"name":"pkg",\n"version":"1.0.0"}\n');
    const err = await rejection(collect(readRecords(path)));
    expect(err).toBeInstanceOf(LogNotUsable);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`${path} is not an mcp-tap log (first line: {"name":"pkg",)`);
    expect((err as LogNotUsable).problem).toBe('not-a-log');
  });

  it('refuses a long foreign file after its first lines, without reading the records far below', async () => {
    const junk = Array.from({ length: 25 }, (_, i) => `{"level":30,"i":${i}}`);
    const path = await logFile([...junk, rec('a', 1)].join('\n') + '\n');
    const err = await rejection(collect(readRecords(path)));
    expect(err.message).toMatch(/is not an mcp-tap log \(first line: \{"level":30,"i":0\}\)$/);
  });

  it('refuses binary junk with a first line that is escaped and cut to 80 characters', async () => {
    const junk = Buffer.concat([Buffer.from('\x1b]0;pwned\x07\x1b[2J'), randomBytes(200_000), Buffer.from('\u202e'.repeat(100))]);
    const path = await logFile(junk);
    const err = await rejection(collect(readRecords(path)));
    expect(err).toBeInstanceOf(LogNotUsable);
    const m = /\(first line: (.*)\)$/s.exec(err.message);
    expect(m).not.toBeNull();
    expect(m![1]!.length).toBeLessThanOrEqual(80);
    expect(m![1]!.startsWith('\\x1b]0;pwned\\x07\\x1b[2J')).toBe(true);
    expect(err.message).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
  });

  it('skips an enormous line with a warning and keeps reading', async () => {
    const big = `{"v":1,"time":1,"session":"a","seq":2,"from":"server","kind":"response","msg":"${'x'.repeat(3 * 1024 * 1024)}"}`;
    const path = await logFile([rec('a', 1), big, rec('a', 3)].join('\n') + '\n');
    const items = await collect(readRecords(path, { maxLineBytes: 1024 * 1024, chunkBytes: 64 * 1024 }));
    expect(records(items).map((r) => r.seq)).toEqual([1, 3]);
    expect(warnings(items)).toEqual([{ line: 2, warning: `line of ${big.length} bytes is longer than the 1048576-byte limit; skipped` }]);
    // the same file with the default cap keeps the line
    expect(records(await collect(readRecords(path))).map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('skips a line over the default 64 MiB cap', async () => {
    const path = join(dir, 'huge.jsonrpc.log');
    const fh = await open(path, 'w');
    await fh.write(`${rec('a', 1)}\n{"v":1,"msg":"`);
    const block = Buffer.alloc(4 * 1024 * 1024, 0x61);
    for (let i = 0; i < 17; i++) await fh.write(block);
    await fh.write(`"}\n${rec('a', 3)}\n`);
    await fh.close();
    const items = await collect(readRecords(path));
    expect(records(items).map((r) => r.seq)).toEqual([1, 3]);
    expect(warnings(items)).toHaveLength(1);
    expect(warnings(items)[0]!.warning).toMatch(/^line of \d+ bytes is longer than the 67108864-byte limit; skipped$/);
    await rm(path);
  });

  it('gives one clear error for a missing file and for a directory', async () => {
    const missing = join(dir, 'nope.jsonrpc.log');
    const err = await rejection(collect(readRecords(missing)));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`no such log: ${missing}`);
    const sub = join(dir, 'adir');
    await mkdir(sub);
    const err2 = await rejection(collect(readRecords(sub)));
    expect(err2).toBeInstanceOf(InputError);
    expect(err2.message).toBe(`${sub} is a directory, not a log`);
  });

  it('yields nothing for an empty file', async () => {
    const path = await logFile('');
    expect(await collect(readRecords(path))).toEqual([]);
    expect(await listSessions(path)).toEqual([]);
  });

  it('closes the file when the reader stops early', async () => {
    if (!existsSync('/proc/self/fd')) return;
    const path = await logFile(Array.from({ length: 1000 }, (_, i) => rec('a', i + 1)).join('\n') + '\n');
    const before = readdirSync('/proc/self/fd').length;
    for (let k = 0; k < 20; k++) {
      for await (const item of readRecords(path, { chunkBytes: 1024 })) {
        if ('record' in item && item.record.seq === 10) break;
      }
    }
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before);
  });
});

describe('listSessions', () => {
  it('summarizes each session in one pass, also when two sessions interleave', async () => {
    const a = session('aaaa-1111', { t: T0 });
    const b = session('bbbb-2222', { t: T0 + 1000, code: null, signal: 'SIGTERM', end: false });
    // b starts while a is still running
    const lines = [...a.slice(0, 4), ...b.slice(0, 3), ...a.slice(4), ...b.slice(3), rec('cccc-3333', 1, { event: 'start', name: 'third', time: T0 + 5000 })];
    const path = await logFile(lines.join('\n') + '\n');
    const ws: WarningItem[] = [];
    const sessions = await listSessions(path, { onWarning: (w) => ws.push(w) });
    expect(ws).toEqual([]);
    expect(sessions.map((s) => s.id)).toEqual(['aaaa-1111', 'bbbb-2222', 'cccc-3333']);
    const [sa, sb, sc] = sessions;
    expect(sa).toMatchObject({
      path,
      firstSeq: 1,
      lastSeq: 11,
      firstLine: 1,
      records: 11,
      start: T0,
      end: T0 + 80,
      durationMs: 80,
      messages: 6,
      errors: 2,
      toolErrors: 2,
      findings: 2,
      exitCode: 0,
      signal: null,
      serverName: 'srv-aaaa-1111',
      command: 'node',
      args: ['server.js', '--x'],
      ended: true,
      v: 1,
    });
    expect(sa!.byKind).toEqual({ event: 4, request: 2, response: 1, error: 1, invalid: 1, stderr: 1, batch: 1 });
    expect(sb).toMatchObject({ records: 10, exitCode: null, signal: 'SIGTERM', ended: false, start: T0 + 1000, durationMs: 70 });
    expect(sb!.firstLine).toBe(5);
    expect(sc).toMatchObject({ records: 1, serverName: 'third', ended: false });
    expect(sc!.exitCode).toBeUndefined();
  });

  it('passes warnings on and still summarizes a live log with a torn last line', async () => {
    const lines = session('live');
    const path = await logFile(lines.slice(0, 5).join('\n') + '\n' + lines[5]!.slice(0, 20));
    const ws: WarningItem[] = [];
    const [s] = await listSessions(path, { onWarning: (w) => ws.push(w) });
    expect(s).toMatchObject({ id: 'live', records: 5, ended: false });
    expect(ws).toEqual([{ warning: TORN_LAST_LINE, line: 6 }]);
  });
});

describe('session selection', () => {
  let path: string;
  beforeAll(async () => {
    const ids = ['s-01', 's-02', 's-03'];
    path = await logFile(ids.flatMap((id, k) => session(id, { t: T0 + k * 1000 })).join('\n') + '\n');
  });

  it('reads the last session started in the file', async () => {
    const rs = await collectRecords(readSession(path, 'last'));
    expect(new Set(rs.map((r) => r.session))).toEqual(new Set(['s-03']));
    expect(rs.map((r) => r.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('reads a session by id and by unique prefix, and all sessions', async () => {
    expect((await collectRecords(readSession(path, 's-02'))).every((r) => r.session === 's-02')).toBe(true);
    expect(await collectRecords(readSession(path, 's-02'))).toHaveLength(11);
    const [byPrefix] = await resolveSession(path, 's-01'.slice(0, 4));
    expect(byPrefix!.id).toBe('s-01');
    expect(await collectRecords(readSession(path, 'all'))).toHaveLength(33);
  });

  it('lists the available sessions for an unknown or ambiguous id', async () => {
    const err = await rejection(collectRecords(readSession(path, 'zzz')));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`no session zzz in ${path}; sessions there: s-01, s-02, s-03`);
    const amb = await rejection(resolveSession(path, 's-0'));
    expect(amb.message).toBe(`session prefix s-0 is ambiguous in ${path}; it matches: s-01, s-02, s-03`);
  });

  it('shows at most 10 ids', async () => {
    const many = await logFile(Array.from({ length: 14 }, (_, i) => rec(`id${String(i).padStart(2, '0')}`, 1)).join('\n') + '\n');
    const err = await rejection(resolveSession(many, 'x'));
    expect(err.message).toMatch(/sessions there: id04, id05, .*, id13 \(and 4 more\)$/);
  });

  it('says when a log has no sessions at all', async () => {
    const empty = await logFile('');
    const err = await rejection(collectRecords(readSession(empty, 'last')));
    expect(err.message).toBe(`no sessions in ${empty}`);
  });

  it('reports unattributable warnings while reading a session', async () => {
    const torn = await logFile(session('t1').join('\n') + '\n' + session('t2').slice(0, 3).join('\n') + '\n{"v":1,"ses');
    const ws: WarningItem[] = [];
    const rs = await collectRecords(readSession(torn, 'last', { onWarning: (w) => ws.push(w) }));
    expect(rs.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(ws.map((w) => w.warning)).toEqual([TORN_LAST_LINE]); // once, although the file is read twice
  });
});

describe('findLatestLog', () => {
  it('picks the most recently modified *.jsonrpc.log and ignores rotated copies and other files', async () => {
    const logs = join(dir, 'logs');
    await mkdir(logs);
    const mk = async (name: string, ageSec: number) => {
      const p = join(logs, name);
      await writeFile(p, rec('x', 1) + '\n');
      const t = new Date(Date.now() - ageSec * 1000);
      await utimes(p, t, t);
      return p;
    };
    await mk('old.jsonrpc.log', 300);
    const newest = await mk('new.jsonrpc.log', 10);
    await mk('mid.jsonrpc.log', 100);
    await mk('new.jsonrpc.log.1', 1);
    await mk('notes.txt', 0);
    await mkdir(join(logs, 'dir.jsonrpc.log'));
    expect(await findLatestLog(logs)).toBe(newest);
    expect((await listLogs(logs)).map((l) => l.path.slice(logs.length + 1))).toEqual(['new.jsonrpc.log', 'mid.jsonrpc.log', 'old.jsonrpc.log']);
  });

  it('says how to make a log when there is none', async () => {
    const empty = join(dir, 'nologs');
    await mkdir(empty);
    const err = await rejection(findLatestLog(empty));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`no logs in ${empty}; run mcp-tap -- <server> first`);
    const missing = join(dir, 'missing-dir');
    expect((await rejection(findLatestLog(missing))).message).toBe(`no logs in ${missing}; run mcp-tap -- <server> first`);
  });
});
