/**
 * The server's secret environment values never reach the log: a real server echoes them in error
 * messages, JSON-escaped, as a number and on stderr, and the start event carries one in argv; the log
 * holds `[REDACTED:env NAME]` instead while the relay forwards every byte unchanged.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers/paths.js';
import { runTap } from '../helpers/run-tap.js';

let tmp: { dir: string; cleanup: () => void };
beforeAll(() => (tmp = tempDir('mcp-tap-envmask-')));
afterAll(() => tmp.cleanup());

const KEY = 'sk-live-4f9a2c7e1b8d';

async function session(env: Record<string, string>, flags: string[], requests: string[], log: string) {
  const run = runTap([...flags, '--log', log, '--', process.execPath, fixture('leak-env.mjs'), `--api-key=${env[env.LEAK_VAR ?? 'API_KEY'] ?? ''}`], { env });
  for (const r of requests) await run.write(`${r}\n`);
  run.child.stdin.end();
  const { code } = await run.exited(15_000);
  return { code, stdout: run.stdout().toString('utf8'), stderr: run.stderr(), log: readFileSync(log, 'utf8') };
}

describe('secret environment values are masked at capture', () => {
  it('masks messages (raw and JSON-escaped), stderr lines and argv; the relay is unchanged', async () => {
    const log = join(tmp.dir, 'a.jsonrpc.log');
    const r = await session({ OPENAI_API_KEY: KEY, LEAK_VAR: 'OPENAI_API_KEY' }, [], ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}'], log);
    expect(r.code).toBe(0);
    // the host got the server's bytes as sent, secret included
    expect(r.stdout).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: `upstream refused key ${KEY}`, data: { quoted: `"${KEY}"\\` } } })}\n`);
    expect(r.log).not.toContain(KEY);
    expect(r.log).not.toContain('4f9a2c7e1b8d');
    const recs = r.log.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.find((x) => x.event === 'start').args).toEqual([fixture('leak-env.mjs'), '--api-key=[REDACTED:env OPENAI_API_KEY]']);
    const err = recs.find((x) => x.kind === 'error');
    expect(err.msg.error).toEqual({ code: -32000, message: 'upstream refused key [REDACTED:env OPENAI_API_KEY]', data: { quoted: '"[REDACTED:env OPENAI_API_KEY]"\\' } });
    const stderr = recs.filter((x) => x.kind === 'stderr').map((x) => x.text ?? x.raw ?? x.msg);
    expect(stderr.join('\n')).toContain('[REDACTED:env OPENAI_API_KEY]');
  });

  it('masks a secret in JSON text inside a string (a tool result that is a JSON document, a structured stderr line), Go-escaped', async () => {
    const log = join(tmp.dir, 'go.jsonrpc.log');
    const secret = 'hunter2&friends<4f9a2c7e>';
    const r = await session({ DB_PASSWORD: secret, LEAK_VAR: 'DB_PASSWORD' }, [], ['{"jsonrpc":"2.0","id":1,"method":"leak/structured"}'], log);
    expect(r.code).toBe(0);
    // the host gets the server's bytes: the secret in the document, & < > escaped twice over
    expect(r.stdout).toContain('hunter2\\\\u0026friends\\\\u003c4f9a2c7e\\\\u003e');
    expect(r.log).not.toContain('hunter2');
    expect(r.log).not.toContain('4f9a2c7e');
    const recs = r.log.trim().split('\n').map((l) => JSON.parse(l));
    const text = recs.find((x) => x.kind === 'response').msg.result.content[0].text as string;
    expect(JSON.parse(text)).toEqual({ dsn: 'user:[REDACTED:env DB_PASSWORD]@db' });
    const structured = recs.filter((x) => x.kind === 'stderr').map((x) => x.raw as string).find((raw) => raw.startsWith('{'))!;
    expect(JSON.parse(structured)).toEqual({ level: 'error', msg: 'login rejected for [REDACTED:env DB_PASSWORD]' });
  });

  it('--redact-env masks any variable; a value the record holds as a number is masked without breaking the JSON', async () => {
    const log = join(tmp.dir, 'b.jsonrpc.log');
    const r = await session({ ACCOUNT_NUMBER: '987654321012', LEAK_VAR: 'ACCOUNT_NUMBER' }, ['--redact-env', 'ACCOUNT_NUMBER'], ['{"jsonrpc":"2.0","id":1,"method":"leak/number"}'], log);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"jsonrpc":"2.0","id":1,"result":{"n":987654321012}}\n');
    expect(r.log).not.toContain('987654321012');
    const recs = r.log.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs.find((x) => x.kind === 'response').msg).toEqual({ jsonrpc: '2.0', id: 1, result: { n: '[REDACTED:env ACCOUNT_NUMBER]' } });
  });

  it('leaves values alone that are short or whose names do not look secret, and says so for --redact-env', async () => {
    const log = join(tmp.dir, 'c.jsonrpc.log');
    const r = await session({ GREETING: 'hello-world-123', SHORT_TOKEN: 'abc', LEAK_VAR: 'GREETING' }, ['--redact-env', 'SHORT_TOKEN'], ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}'], log);
    expect(r.log).toContain('hello-world-123');
    expect(r.stderr).toContain('mcp-tap: --redact-env SHORT_TOKEN: the value is shorter than 8 characters and is not masked');
  });

  it('a sink beside the log (--ship) gets the masked copy too', async () => {
    const log = join(tmp.dir, 'd.jsonrpc.log');
    const shipped = join(tmp.dir, 'd.shipped.log');
    const r = await session({ OPENAI_API_KEY: KEY, LEAK_VAR: 'OPENAI_API_KEY' }, ['--ship', 'pino/file', '--ship-options', JSON.stringify({ destination: shipped })], ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}'], log);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(KEY);
    const out = readFileSync(shipped, 'utf8');
    expect(out).toContain('[REDACTED:env OPENAI_API_KEY]');
    expect(out).not.toContain('4f9a2c7e1b8d');
  });
});
