/**
 * wrap/unwrap for every host beyond the first five, in JSON/JSONC, TOML and YAML: each fixture (comments,
 * odd indentation, CRLF, remote and already-wrapped entries) is found where the host keeps it, wrapped
 * into the documented command line (read back with each format's own parser, not mcp-tap's tree), and
 * unwrapped to the same bytes. A property test does the same for random entries written in random styles.
 */
import { dirname, basename } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { discoverConfigs } from '../../src/hosts/discover.js';
import { planUnwrap, planWrap } from '../../src/hosts/plan.js';
import type { HostEnv, Launcher, ServersLocation } from '../../src/hosts/types.js';
import { MORE_FIXTURES, fixtureText } from '../fixtures/hosts/fixtures.js';

const H: HostEnv = { platform: 'linux', home: '/home/u', cwd: '/work/project', env: {} };
const SCRIPT: Launcher = { command: '/opt/mcp-tap/bin/mcp-tap.js', prefixArgs: [], form: 'script' };
const NODE: Launcher = { command: '/usr/bin/node', prefixArgs: ['/opt/mcp-tap/bin/mcp-tap.js'], form: 'node' };
const NPX: Launcher = { command: 'npx', prefixArgs: ['-y', 'mcp-tap'], form: 'npx' };

/** A config as the host reads it, with each format's reference parser. */
function read(text: string, file: string): Record<string, unknown> {
  if (file.endsWith('.toml')) return getStaticTOMLValue(parseTOML(text)) as Record<string, unknown>;
  if (/\.ya?ml$/.test(file)) return parseYaml(text) as Record<string, unknown>;
  return parseJsonc(text, [], { allowTrailingComma: true }) as Record<string, unknown>;
}

type Raw = Record<string, unknown>;

/** name → entry, in the host's own layout. */
function entriesOf(host: string, root: Raw): Record<string, Raw> {
  const key = { codex: 'mcp_servers', zed: 'context_servers', goose: 'extensions', opencode: 'mcp', 'vscode-insiders': 'servers' }[host] ?? 'mcpServers';
  const v = root[key];
  if (Array.isArray(v)) return Object.fromEntries((v as Raw[]).map((e) => [e.name as string, e]));
  return (v ?? {}) as Record<string, Raw>;
}

/** The command line of an entry, written out per host from its docs, and the entry without it. */
function commandLine(host: string, e: Raw): { line: unknown[]; rest: Raw } {
  if (host === 'opencode') {
    const { command, ...rest } = e;
    return { line: command as unknown[], rest };
  }
  if (host === 'goose') {
    const { cmd, args, ...rest } = e;
    return { line: [cmd, ...((args as unknown[]) ?? [])], rest };
  }
  if (host === 'zed' && typeof e.command === 'object') {
    const { path, args, ...inner } = e.command as Raw;
    return { line: [path, ...((args as unknown[]) ?? [])], rest: { ...e, command: inner } };
  }
  const { command, args, ...rest } = e;
  return { line: [command, ...((args as unknown[]) ?? [])], rest };
}

async function located(f: (typeof MORE_FIXTURES)[number], text: string): Promise<{ file: string; locations: ServersLocation[] }> {
  const file = f.target(H.home, H.cwd);
  const { found } = await discoverConfigs(
    { host: f.host },
    H,
    async (p) => (p === file ? text : undefined),
    async (dir) => (dir === dirname(file) ? [basename(file), 'notes.txt'] : []),
  );
  expect(found.map((c) => c.file)).toEqual([file]);
  return { file, locations: found[0]!.locations };
}

describe.each(MORE_FIXTURES)('$host: $rel', (f) => {
  const text = fixtureText(f.rel);

  it.each([SCRIPT, NODE, NPX])('is found where the host keeps it; wraps and unwraps byte-identically ($form)', async (launcher) => {
    const { file, locations } = await located(f, text);
    const wrapped = planWrap(text, file, locations, { launcher });
    const names = wrapped.results.filter((r) => r.action === 'wrapped').map((r) => r.name);
    expect(names.length).toBeGreaterThan(0);
    expect(wrapped.newText).not.toBe(text);
    const back = planUnwrap(wrapped.newText, file, locations, { names: new Set(names), backupText: text });
    expect(back.results.map((r) => r.action)).toEqual(names.map(() => 'unwrapped'));
    expect(back.newText).toBe(text);
  });

  it('the host reads the documented command line; every other key and entry stays', async () => {
    const { file, locations } = await located(f, text);
    const { newText, results } = planWrap(text, file, locations, { launcher: NODE });
    const before = entriesOf(f.host, read(text, file));
    const after = entriesOf(f.host, read(newText, file));
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const [name, b] of Object.entries(before)) {
      const a = after[name]!;
      const wrapped = results.some((r) => r.name === name && r.action === 'wrapped');
      if (!wrapped) {
        expect(a).toEqual(b);
        continue;
      }
      const was = commandLine(f.host, b);
      const now = commandLine(f.host, a);
      expect(now.line).toEqual([NODE.command, ...NODE.prefixArgs, '--name', name.replace(/[^A-Za-z0-9._-]+/g, '-'), '--', ...was.line]);
      expect(now.rest).toEqual(was.rest);
    }
    const { mcp_servers: _a, mcpServers: _b, context_servers: _c, extensions: _d, mcp: _e, servers: _f, ...otherBefore } = read(text, file);
    const { mcp_servers: _a2, mcpServers: _b2, context_servers: _c2, extensions: _d2, mcp: _e2, servers: _f2, ...otherAfter } = read(newText, file);
    expect(otherAfter).toEqual(otherBefore);
  });

  it('wrapping twice changes nothing; line endings stay', async () => {
    const { file, locations } = await located(f, text);
    const once = planWrap(text, file, locations, { launcher: SCRIPT });
    expect(planWrap(once.newText, file, locations, { launcher: SCRIPT }).newText).toBe(once.newText);
    if (text.includes('\r\n')) expect(once.newText.replace(/\r\n/g, '')).not.toContain('\n');
    else expect(once.newText).not.toContain('\r');
  });
});

describe('what is skipped, per host', () => {
  it('remote, built-in and already-wrapped entries are listed with a reason', async () => {
    const skipped: Record<string, string | undefined> = {};
    for (const f of MORE_FIXTURES) {
      const text = fixtureText(f.rel);
      const { file, locations } = await located(f, text);
      for (const r of planWrap(text, file, locations, { launcher: SCRIPT }).results) {
        if (r.action === 'skipped') skipped[`${f.rel}#${r.name}`] = r.reason;
      }
    }
    expect(skipped).toEqual({
      'gemini/settings.json#remote-docs': 'HTTP/SSE server (https://docs.example.com/mcp): mcp-tap relays stdio only',
      'gemini/settings.json#sse-thing': 'HTTP/SSE server (http://localhost:8080/sse): mcp-tap relays stdio only',
      'gemini/settings.json#tapped': 'already wrapped',
      'codex/config.toml#remote': 'HTTP/SSE server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'codex/config.toml#tapped': 'already wrapped',
      'zed/settings.json#from-extension': 'extension entry: the host runs it itself, there is no command to wrap',
      'zed/settings.json#remote': 'HTTP/SSE server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'cline/cline_mcp_settings.json#remote': 'streamableHttp server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'roo/mcp_settings.json#remote': 'streamable-http server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'roo/project-mcp.json#sse': 'sse server (http://localhost:3000/sse): mcp-tap relays stdio only',
      'continue/config.yaml#remote': 'streamable-http server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'continue/config.yaml#tapped': 'already wrapped',
      'goose/config.yaml#developer': 'builtin entry: the host runs it itself, there is no command to wrap',
      'goose/config.yaml#remote': 'sse server (http://localhost:8000/sse): mcp-tap relays stdio only',
      'lmstudio/mcp.json#hf': 'HTTP/SSE server (https://huggingface.co/mcp): mcp-tap relays stdio only',
      'amazonq/project-mcp.json#tapped': 'already wrapped',
      'kiro/mcp.json#remote': 'HTTP/SSE server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'opencode/opencode.json#remote': 'remote server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      'opencode/opencode.json#tapped': 'already wrapped',
      'copilot-cli/mcp-config.json#github': 'http server (https://api.githubcopilot.com/mcp/): mcp-tap relays stdio only',
    });
  });
});

describe('the shape of TOML and YAML edits', () => {
  const codex: ServersLocation[] = [{ host: 'codex', scope: 'config', file: 'c.toml', serversPath: ['mcp_servers'] }];
  const cont: ServersLocation[] = [{ host: 'continue', scope: 'config', file: 'c.yaml', serversPath: ['mcpServers'], list: true }];

  it('TOML: a table without args gets `args` on the next line; a dotted key keeps its prefix; inline tables stay inline', () => {
    const text = '[mcp_servers.a]\ncommand = "srv" # c\nenv = {}\n\n[mcp_servers]\nb = { command = "x" }\nc.command = \'y\'\n';
    const { newText } = planWrap(text, 'c.toml', codex, { launcher: SCRIPT });
    expect(newText).toBe(
      '[mcp_servers.a]\ncommand = "/opt/mcp-tap/bin/mcp-tap.js" # c\nargs = ["--name", "a", "--", "srv"]\nenv = {}\n\n[mcp_servers]\n' +
        'b = { command = "/opt/mcp-tap/bin/mcp-tap.js", args = ["--name", "b", "--", "x"] }\nc.command = "/opt/mcp-tap/bin/mcp-tap.js"\nc.args = ["--name", "c", "--", \'y\']\n',
    );
    expect(planUnwrap(newText, 'c.toml', codex, {}).newText).toBe(text);
  });

  it('YAML: block sequences get `- ` items at their own indentation; a key after `- ` indents to its column', () => {
    const text = 'mcpServers:\n- command: npx   # first key\n  name: a\n  args:\n    - -y\n    - pkg\n- name: b\n  command: srv\n';
    const { newText } = planWrap(text, 'c.yaml', cont, { launcher: SCRIPT });
    expect(newText).toBe(
      'mcpServers:\n- command: "/opt/mcp-tap/bin/mcp-tap.js"   # first key\n  name: a\n  args:\n    - "--name"\n    - "a"\n    - "--"\n    - npx\n    - -y\n    - pkg\n' +
        '- name: b\n  command: "/opt/mcp-tap/bin/mcp-tap.js"\n  args: ["--name", "b", "--", srv]\n',
    );
    expect(planUnwrap(newText, 'c.yaml', cont, {}).newText).toBe(text);
  });

  it('a YAML command whose token cannot move into a flow list is refused before anything is written', () => {
    const text = 'mcpServers:\n  - name: a\n    command: run,fast\n';
    expect(() => planWrap(text, 'c.yaml', cont, { launcher: SCRIPT })).toThrow(/cannot wrap "a" in c\.yaml: the edited file would not read back as intended/);
  });

  it('multi-line strings are skipped with a reason, not edited', () => {
    const text = 'mcpServers:\n  - name: a\n    command: |\n      srv\n';
    const { results, newText } = planWrap(text, 'c.yaml', cont, { launcher: SCRIPT });
    expect(newText).toBe(text);
    expect(results[0]!.reason).toMatch(/multi-line strings/);
  });

  it('a byte order mark stays in place (TOML and YAML)', () => {
    for (const [text, file, loc] of [
      ['\uFEFF[mcp_servers.a]\ncommand = "x"\n', 'c.toml', codex],
      ['\uFEFFmcpServers:\n  - name: a\n    command: x\n', 'c.yaml', cont],
    ] as const) {
      const { newText } = planWrap(text, file, loc, { launcher: SCRIPT });
      expect(newText.startsWith('\uFEFF')).toBe(true);
      expect(newText).toContain('"--name", "a", "--"');
      expect(planUnwrap(newText, file, loc, {}).newText).toBe(text);
    }
  });

  it('syntax errors name the line and column', () => {
    expect(() => planWrap('[mcp_servers.a]\ncommand = = "x"\n', 'c.toml', codex, { launcher: SCRIPT })).toThrow(/^cannot read c\.toml: .* at line 2, column \d+$/);
    expect(() => planWrap('mcpServers:\n  - name: a\n   bad: [\n', 'c.yaml', cont, { launcher: SCRIPT })).toThrow(/^cannot read c\.yaml: .* at line \d+, column \d+$/);
  });
});
