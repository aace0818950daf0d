/**
 * `mcp-tap mcp` reads only the log directory it serves (issue 32 §3): no log name, session id, resource
 * address or cursor an agent sends reaches a file outside it — not `..`, not an absolute path, not a
 * subdirectory, not a symbolic link in the directory pointing out of it — and with --log, only that log.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/mcp/budget.js';
import { parseSessionUri } from '../../src/mcp/session-uri.js';
import { errorText, memoryClient, ok, type MemoryClient } from '../helpers/mcp-memory.js';
import { tempDir } from '../helpers/paths.js';

const box = tempDir('mcp-tap-mcp-confine-');
const dir = join(box.dir, 'logs');
const MARK = 'OUTSIDE-CONTENT-7f3a';

function log(path: string, session: string, text: string): void {
  const recs = [
    { v: 1, time: 1_767_000_000_000, session, seq: 1, from: 'proxy', kind: 'event', event: 'start', name: session, command: 'node', args: ['s.js'] },
    { v: 1, time: 1_767_000_000_005, session, seq: 2, from: 'server', kind: 'stderr', raw: text },
  ];
  writeFileSync(path, recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

let m: MemoryClient;
beforeAll(async () => {
  mkdirSync(join(dir, 'sub'), { recursive: true });
  log(join(dir, 'inside.jsonrpc.log'), 'inside-1', 'hello from inside');
  log(join(box.dir, 'outside.jsonrpc.log'), 'outside-1', MARK);
  log(join(dir, 'sub', 'nested.jsonrpc.log'), 'nested-1', MARK);
  symlinkSync(join(box.dir, 'outside.jsonrpc.log'), join(dir, 'link.jsonrpc.log'));
  m = await memoryClient({ dir });
});
afterAll(async () => {
  await m.close();
  box.cleanup();
});

describe('mcp-tap mcp reads only its log directory', () => {
  it('lists only the regular logs directly in it', async () => {
    const r = ok<{ sessions: Array<{ id: string; log: string }> }>(await m.call('list_sessions'));
    expect(r.sessions.map((s) => [s.id, s.log])).toEqual([['inside-1', 'inside.jsonrpc.log']]);
  });

  it('refuses log names that would lead out of it', async () => {
    for (const name of ['../outside.jsonrpc.log', join(box.dir, 'outside.jsonrpc.log'), 'sub/nested.jsonrpc.log', 'link.jsonrpc.log', '..', '.', 'inside.jsonrpc.log/../../outside.jsonrpc.log']) {
      for (const [tool, args] of [
        ['list_sessions', { log: name }],
        ['get_session', { log: name }],
        ['search_messages', { log: name }],
        ['session_stats', { log: name, session: 'all' }],
      ] as const) {
        expect(errorText(await m.call(tool, args)), `${tool} ${name}`).toMatch(/^no log "/);
      }
    }
  });

  it('refuses session ids that are not in it', async () => {
    for (const session of ['outside-1', 'nested-1', '../outside-1', '../../outside.jsonrpc.log#outside-1', `${join(box.dir, 'outside.jsonrpc.log')}#outside-1`]) {
      expect(errorText(await m.call('get_session', { session })), session).toMatch(/^no session /);
      expect(errorText(await m.call('get_message', { session, seq: 2 })), session).toMatch(/^no session /);
      expect(errorText(await m.call('check_session', { session })), session).toMatch(/^no session /);
    }
  });

  it('refuses resource addresses that are not its sessions', async () => {
    for (const uri of ['mcp-tap://session/outside-1', 'mcp-tap://session/..%2F..%2Foutside.jsonrpc.log', 'mcp-tap://session/inside-1?log=..%2Foutside.jsonrpc.log', 'mcp-tap://session/inside-1?log=link.jsonrpc.log', 'file:///etc/passwd', 'mcp-tap://session/../outside-1']) {
      await expect(m.read(uri), uri).rejects.toThrow(/not a session resource|no session|no log/);
    }
    expect(((await m.read('mcp-tap://session/inside-1')).contents[0] as { text: string }).text).toContain('hello from inside');
  });

  it('a forged cursor naming logs outside gets nothing from them', async () => {
    const cursor = encodeCursor('search_messages', {}, { logs: ['../outside.jsonrpc.log', 'link.jsonrpc.log', join(box.dir, 'outside.jsonrpc.log'), 'sub/nested.jsonrpc.log'], offset: 0 });
    const r = ok<{ matches: unknown[]; complete: boolean }>(await m.call('search_messages', { cursor }));
    expect(r).toEqual({ matches: [], complete: true });
  });

  it('nothing of the files outside appears in any answer', () => {
    const text = m.seen.join('\n');
    expect(text).not.toContain(MARK);
    expect(text).not.toContain('outside-1",');
  });

  it('with --log, only that log is served', async () => {
    log(join(dir, 'other.jsonrpc.log'), 'other-1', 'another log beside it');
    const one = await memoryClient({ file: join(dir, 'inside.jsonrpc.log') });
    try {
      expect(ok<{ sessions: Array<{ id: string }> }>(await one.call('list_sessions')).sessions.map((s) => s.id)).toEqual(['inside-1']);
      expect(errorText(await one.call('get_session', { session: 'other-1' }))).toMatch(/^no session /);
      expect(errorText(await one.call('search_messages', { log: 'other.jsonrpc.log' }))).toMatch(/^no log /);
    } finally {
      await one.close();
    }
  });
});

describe('session resource addresses', () => {
  it('parse to an id, a page and a log, and nothing else', () => {
    expect(parseSessionUri('mcp-tap://session/abc-1')).toEqual({ id: 'abc-1', page: 1 });
    expect(parseSessionUri('mcp-tap://session/a%2Fb?page=3&log=x.jsonrpc.log')).toEqual({ id: 'a/b', page: 3, log: 'x.jsonrpc.log' });
    for (const bad of ['mcp-tap://session/', 'mcp-tap://session/a/b', 'mcp-tap://session/a?page=0', 'mcp-tap://session/a?page=x', 'mcp-tap://session/a?x=1', 'mcp-tap://other/a', 'mcp-tap://session/%E0%A4%A']) {
      expect(() => parseSessionUri(bad), bad).toThrow(/not a session resource/);
    }
  });
});
