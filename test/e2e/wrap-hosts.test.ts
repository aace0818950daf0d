/**
 * Done-when for issue 9: for every host, a fixture config is wrapped by the built CLI, each wrapped
 * server-everything entry — started exactly as the host starts it — completes an SDK session through
 * mcp-tap (and leaves a log), and unwrap gives back the identical bytes.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'jsonc-parser';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { EVERYTHING, FIXTURES, MORE_FIXTURES, REPO, fixtureText } from '../fixtures/hosts/fixtures.js';

const run = promisify(execFile);
const BIN = join(REPO, 'bin', 'mcp-tap.js');
/** What wrap writes as `command`: the script when it can be executed directly, else node (see docs/host-integration.md). */
const LAUNCH = (() => {
  try {
    accessSync(BIN, constants.X_OK);
    return { command: BIN, prefix: [] as string[] };
  } catch {
    return { command: process.execPath, prefix: [BIN] };
  }
})();
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Sandbox {
  home: string;
  project: string;
  state: string;
  env: NodeJS.ProcessEnv;
  files: { file: string; original: string; key: string }[];
}

function sandbox(host: string): Sandbox {
  const root = mkdtempSync(join(tmpdir(), `mcp-tap-wrap-${host}-`));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  const state = join(root, 'state');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_STATE_HOME: state };
  delete env.XDG_CONFIG_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.APPDATA;
  delete env.MCP_TAP_LOG;
  const files = FIXTURES.filter((f) => f.host === host).map((f) => {
    const file = f.target(home, project);
    const original = fixtureText(f.rel, { project });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, original);
    return { file, original, key: f.key };
  });
  return { home, project, state, env, files };
}

/** Runs the CLI expecting it to fail: its exit code and stderr (throws when it succeeds). */
async function failing(sb: Sandbox, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await cli(sb, ...args);
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
  throw new Error('expected a failure');
}

async function cli(sb: Sandbox, ...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [BIN, ...args], { cwd: sb.project, env: sb.env });
}

type Entry = { command: string; args?: string[]; env?: Record<string, string>; cwd?: string };

/** The server-everything entries of a config (all scopes), as the host reads them. */
function everythingEntries(text: string, key: string, project: string): [string, Entry][] {
  const root = parse(text) as Record<string, unknown>;
  const objects = [root[key], (root.projects as Record<string, Record<string, unknown>> | undefined)?.[project]?.[key]];
  const out: [string, Entry][] = [];
  for (const o of objects) {
    for (const [name, e] of Object.entries((o ?? {}) as Record<string, Entry>)) {
      if (e.args?.includes(EVERYTHING)) out.push([name, e]);
    }
  }
  return out;
}

/** Starts an entry the way hosts do (command + args, host env + entry env, entry cwd) and runs a session. */
async function sessionAsHost(entry: Entry, state: string): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args ?? [],
    env: { ...(process.env as Record<string, string>), XDG_STATE_HOME: state, ...(entry.env ?? {}) },
    cwd: entry.cwd,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'host-under-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tools = await client.listTools();
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'through the tap' } });
    expect(JSON.stringify(echo.content)).toContain('through the tap');
    return tools.tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe.concurrent.each(['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf'])('%s', (host) => {
  it('wrap → the host starts the entry through mcp-tap → unwrap gives the identical file', async () => {
    const sb = sandbox(host);
    const { stdout } = await cli(sb, 'wrap', '--host', host);
    const wrappedNames = [...stdout.matchAll(/^ {2}wrapped +(\S+)/gm)].map((m) => m[1]!);
    expect(wrappedNames.length).toBeGreaterThan(0);

    const sessions: Promise<string[]>[] = [];
    const names: string[] = [];
    for (const f of sb.files) {
      const text = readFileSync(f.file, 'utf8');
      expect(text).not.toBe(f.original);
      // backup of the original next to the file
      expect(readFileSync(`${f.file}.mcp-tap.bak`, 'utf8')).toBe(f.original);
      for (const [name, entry] of everythingEntries(text, f.key, sb.project)) {
        expect(entry.command).toBe(LAUNCH.command);
        expect(entry.args!.slice(0, LAUNCH.prefix.length + 3)).toEqual([...LAUNCH.prefix, '--name', name, '--']);
        names.push(name);
        sessions.push(sessionAsHost(entry, sb.state));
      }
    }
    expect(names.length).toBeGreaterThan(0);
    for (const tools of await Promise.all(sessions)) expect(tools).toContain('echo');
    // the traffic went through mcp-tap: one log per wrapped entry, named after it
    const logs = readdirSync(join(sb.state, 'mcp-tap'));
    for (const name of names) expect(logs).toContain(`${name}.jsonrpc.log`);

    await cli(sb, 'unwrap', '--host', host, ...wrappedNames);
    for (const f of sb.files) expect(readFileSync(f.file, 'utf8')).toBe(f.original);
  });
});

describe('every other host, every format', () => {
  it('wrap with no flags finds every host\'s files (JSON, TOML, YAML); unwrap of those names restores each byte for byte', async () => {
    const sb = sandbox('none');
    const files = MORE_FIXTURES.map((f) => {
      const file = f.target(sb.home, sb.project);
      const original = fixtureText(f.rel, { project: sb.project });
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, original);
      return { file, original, host: f.host };
    });
    const { stdout } = await cli(sb, 'wrap');
    for (const f of files) {
      expect(stdout).toContain(`${f.file}\n`);
      expect(readFileSync(f.file, 'utf8')).not.toBe(f.original);
      expect(readFileSync(`${f.file}.mcp-tap.bak`, 'utf8')).toBe(f.original);
    }
    const hosts = new Set([...stdout.matchAll(/^ {2}wrapped +\S+ +\(([a-z-]+), /gm)].map((m) => m[1]));
    expect([...hosts].sort()).toEqual([...new Set(MORE_FIXTURES.map((f) => f.host))].sort());
    // Only what wrap wrapped: without names, unwrap would also unwrap the fixtures' hand-wrapped entries.
    const wrapped = new Set([...stdout.matchAll(/^ {2}wrapped +(.+?) {2}\(/gm)].map((m) => m[1]!));
    await cli(sb, 'unwrap', ...wrapped);
    for (const f of files) expect(readFileSync(f.file, 'utf8')).toBe(f.original);
  });
});

describe('the CLI around the edit', () => {
  it('wrapping twice changes nothing the second time', async () => {
    const sb = sandbox('cursor');
    await cli(sb, 'wrap', '--host', 'cursor');
    const once = sb.files.map((f) => readFileSync(f.file));
    const mtimes = sb.files.map((f) => statSync(f.file).mtimeMs);
    const { stdout } = await cli(sb, 'wrap', '--host', 'cursor');
    expect(stdout).toContain('nothing to wrap');
    expect(stdout).toMatch(/skipped +everything — already wrapped/);
    sb.files.forEach((f, i) => {
      expect(readFileSync(f.file).equals(once[i]!)).toBe(true);
      expect(statSync(f.file).mtimeMs).toBe(mtimes[i]);
    });
  });

  it('--dry-run shows a diff and changes nothing (no backup either)', async () => {
    const sb = sandbox('vscode');
    const { stdout } = await cli(sb, 'wrap', '--dry-run', '--host', 'vscode');
    expect(stdout).toContain(`  --- ${sb.files[0]!.file}`);
    expect(stdout).toMatch(/^ {2}-\s+"command": "node",$/m);
    expect(stdout).toContain(`+            "command": ${JSON.stringify(LAUNCH.command)},`);
    expect(stdout).toContain('dry run: 2 servers would be wrapped; nothing written');
    for (const f of sb.files) {
      expect(readFileSync(f.file, 'utf8')).toBe(f.original);
      expect(existsSync(`${f.file}.mcp-tap.bak`)).toBe(false);
    }
  });

  it('keeps the file mode, keeps the first backup, and unwraps everything (also hand-wrapped entries) without names', async () => {
    const sb = sandbox('claude-desktop');
    const f = sb.files[0]!;
    chmodSync(f.file, 0o600);
    await cli(sb, 'wrap', 'everything');
    expect(statSync(f.file).mode & 0o777).toBe(0o600);
    expect(statSync(`${f.file}.mcp-tap.bak`).mode & 0o777).toBe(0o600);
    const afterFirst = readFileSync(f.file, 'utf8');
    await cli(sb, 'wrap', '--host', 'claude-desktop', 'multi-line');
    expect(readFileSync(`${f.file}.mcp-tap.bak`, 'utf8')).toBe(f.original);
    expect(readFileSync(f.file, 'utf8')).not.toBe(afterFirst);
    const { stdout } = await cli(sb, 'unwrap');
    expect(stdout).toMatch(/unwrapped +tapped/);
    const root = parse(readFileSync(f.file, 'utf8')) as { mcpServers: Record<string, Entry> };
    expect(root.mcpServers.tapped).toEqual({ command: 'node', args: ['server.js'] });
    expect(root.mcpServers.everything!.command).toBe('node');
    expect(root.mcpServers['multi-line']!.command).toBe('npx');
  });

  it('--node starts mcp-tap with the absolute node, for hosts whose PATH has none', async () => {
    const sb = sandbox('windsurf');
    await cli(sb, 'wrap', '--node');
    const [[name, entry]] = everythingEntries(readFileSync(sb.files[0]!.file, 'utf8'), 'mcpServers', sb.project) as [[string, Entry]];
    expect(entry.command).toBe(process.execPath);
    expect(entry.args!.slice(0, 4)).toEqual([BIN, '--name', name, '--']);
    expect(await sessionAsHost(entry, sb.state)).toContain('echo');
    await cli(sb, 'unwrap');
    expect(readFileSync(sb.files[0]!.file, 'utf8')).toBe(sb.files[0]!.original);
  });

  it('--npx writes npx -y mcp-tap', async () => {
    const sb = sandbox('windsurf');
    const { stdout } = await cli(sb, 'wrap', '--npx', '--dry-run');
    expect(stdout).toContain('+            "command": "npx",');
    expect(stdout).toContain('+                "-y",');
    expect(stdout).toContain('+                "mcp-tap",');
  });

  it('clear one-line errors: unknown host, unknown name, nothing found, unreadable config', async () => {
    const sb = sandbox('cursor');
    const fail = (...args: string[]) => failing(sb, ...args);
    expect(await fail('wrap', '--host', 'emacs')).toEqual({ code: 2, stderr: expect.stringMatching(/^mcp-tap: unknown host "emacs" \(one of: claude-desktop, claude-code, cursor, vscode, vscode-insiders, windsurf, gemini, codex, zed, cline, roo, continue, goose, lmstudio, amazonq, kiro, opencode, copilot-cli, qwen, kilo, all\)\n$/) });
    expect(await fail('wrap', 'nope')).toEqual({ code: 2, stderr: expect.stringMatching(/^mcp-tap: no server named "nope" in .*\n$/) });
    expect(await fail('wrap', '--host', 'windsurf')).toEqual({ code: 2, stderr: expect.stringMatching(/^mcp-tap: no MCP configuration found; looked at: .*mcp_config\.json/) });
    writeFileSync(sb.files[0]!.file, '{ "mcpServers": { "a": ');
    expect(await fail('wrap', '--host', 'cursor')).toEqual({ code: 2, stderr: expect.stringMatching(/^mcp-tap: cannot read .*mcp\.json: value expected at line 1, column 24\n$/) });
  });

  it('clear one-line errors: --npx with --node, a YAML config of several documents; nothing written', async () => {
    const sb = sandbox('cursor');
    const fail = (...args: string[]) => failing(sb, ...args);
    // before: --npx won silently over --node
    expect(await fail('wrap', '--npx', '--node')).toEqual({ code: 2, stderr: 'mcp-tap: --npx and --node are two ways to start mcp-tap: give one of them\n' });
    expect(readFileSync(sb.files[0]!.file, 'utf8')).toBe(sb.files[0]!.original);
    // before: the YAML library's words, "please use YAML.parseAllDocuments()"
    const yaml = join(sb.project, 'servers.yaml');
    const text = 'mcpServers:\n  a:\n    command: npx\n---\nmcpServers: {}\n';
    writeFileSync(yaml, text);
    expect(await fail('wrap', '--config', yaml)).toEqual({
      code: 2,
      stderr: `mcp-tap: cannot read ${yaml}: it holds several YAML documents (---), and a host reads a config of one at line 4, column 1\n`,
    });
    expect(readFileSync(yaml, 'utf8')).toBe(text);
  });

  it('--config edits any file; the key (mcpServers or servers) is taken from the file', async () => {
    const sb = sandbox('vscode');
    const other = join(sb.project, 'elsewhere.json');
    writeFileSync(other, fixtureText('vscode/user-mcp.json'));
    const { stdout } = await cli(sb, 'wrap', '--config', other);
    expect(stdout).toMatch(/wrapped +user-everything/);
    const { stdout: back } = await cli(sb, 'unwrap', '--config', other);
    expect(back).toMatch(/unwrapped +user-everything/);
    expect(readFileSync(other, 'utf8')).toBe(fixtureText('vscode/user-mcp.json'));
  });
});
