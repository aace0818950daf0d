import { describe, expect, it } from 'vitest';
import { parse } from 'jsonc-parser';
import { hostLocations } from '../../src/hosts/locations.js';
import { planUnwrap, planWrap } from '../../src/hosts/plan.js';
import { parseConfig } from '../../src/hosts/parse-config.js';
import { plainValue } from '../../src/hosts/config-tree.js';
import type { HostEnv, HostId, Launcher } from '../../src/hosts/types.js';
import { FIXTURES, fixtureText } from '../fixtures/hosts/fixtures.js';

const H: HostEnv = { platform: 'linux', home: '/home/u', cwd: '/work/project', env: {} };
const SCRIPT: Launcher = { command: '/opt/mcp-tap/bin/mcp-tap.js', prefixArgs: [], form: 'script' };
const NODE: Launcher = { command: '/usr/bin/node', prefixArgs: ['/opt/mcp-tap/bin/mcp-tap.js'], form: 'node' };
const NPX: Launcher = { command: 'npx', prefixArgs: ['-y', 'mcp-tap'], form: 'npx' };

function locationsFor(f: (typeof FIXTURES)[number]) {
  const file = f.target(H.home, H.cwd);
  return hostLocations(f.host as HostId, H).filter((l) => l.file === file);
}

function entries(text: string, path: string[]): Record<string, Record<string, unknown>> {
  let v: unknown = parse(text, [], { allowTrailingComma: true });
  for (const k of path) v = (v as Record<string, unknown>)[k];
  return v as Record<string, Record<string, unknown>>;
}

describe.each(FIXTURES)('$rel', (f) => {
  const text = fixtureText(f.rel);
  const locations = locationsFor(f);

  it.each([SCRIPT, NODE, NPX])('wraps and unwraps byte-identically ($form)', (launcher) => {
    const wrapped = planWrap(text, 'x', locations, { launcher });
    const names = wrapped.results.filter((r) => r.action === 'wrapped').map((r) => r.name);
    expect(names.length).toBeGreaterThan(0);
    expect(wrapped.newText).not.toBe(text);
    const back = planUnwrap(wrapped.newText, 'x', locations, { names: new Set(names), backupText: text });
    expect(back.results.every((r) => r.action === 'unwrapped')).toBe(true);
    expect(back.newText).toBe(text);
  });

  it('wrapping twice changes nothing the second time', () => {
    const once = planWrap(text, 'x', locations, { launcher: SCRIPT });
    const twice = planWrap(once.newText, 'x', locations, { launcher: SCRIPT });
    expect(twice.newText).toBe(once.newText);
    expect(twice.results.filter((r) => r.action === 'wrapped')).toEqual([]);
  });

  it('rewrites command and args as the issue says, keeping every other key', () => {
    const { newText, results } = planWrap(text, 'x', locations, { launcher: SCRIPT });
    for (const r of results.filter((x) => x.action === 'wrapped')) {
      const path = r.location.serversPath.map(String);
      const before = entries(text, path)[r.name]!;
      const after = entries(newText, path)[r.name]!;
      expect(after.command).toBe(SCRIPT.command);
      expect(after.args).toEqual(['--name', r.name, '--', before.command, ...((before.args as string[] | undefined) ?? [])]);
      const { command: _c, args: _a, ...restBefore } = before;
      const { command: _c2, args: _a2, ...restAfter } = after;
      expect(restAfter).toEqual(restBefore);
      expect(Object.keys(after)).toEqual([...new Set([...Object.keys(before).slice(0, Object.keys(before).indexOf('command') + 1), 'args', ...Object.keys(before)])]);
    }
  });

  it('keeps line endings: no bare LF in a CRLF file', () => {
    const { newText } = planWrap(text, 'x', locations, { launcher: SCRIPT });
    if (text.includes('\r\n')) expect(newText.replace(/\r\n/g, '')).not.toContain('\n');
    else expect(newText).not.toContain('\r');
  });
});

describe('skips and lists what it cannot wrap', () => {
  it('HTTP, SSE and serverUrl entries and already-wrapped entries', () => {
    const all = FIXTURES.flatMap((f) => planWrap(fixtureText(f.rel), f.rel, locationsFor(f), { launcher: SCRIPT }).results);
    const skipped = Object.fromEntries(all.filter((r) => r.action === 'skipped').map((r) => [`${r.location.file}#${r.name}`, r.reason]));
    expect(skipped).toEqual({
      '/home/u/.config/Claude/claude_desktop_config.json#tapped': 'already wrapped',
      '/home/u/.claude.json#remote-api': 'http server (https://mcp.example.com/mcp): mcp-tap relays stdio only',
      '/work/project/.mcp.json#sse-thing': 'sse server (http://localhost:9000/sse): mcp-tap relays stdio only',
      '/home/u/.cursor/mcp.json#remote': 'HTTP/SSE server (https://cursor.example.com/sse): mcp-tap relays stdio only',
      '/work/project/.cursor/mcp.json#via-npx': 'already wrapped',
      '/work/project/.vscode/mcp.json#github': 'http server (https://api.githubcopilot.com/mcp/): mcp-tap relays stdio only',
      '/home/u/.codeium/windsurf/mcp_config.json#remote': 'HTTP/SSE server (https://windsurf.example.com/mcp): mcp-tap relays stdio only',
    });
  });

  it("mcp-tap's own MCP server is never wrapped, nor unwrapped into something else (issue 32)", () => {
    const text = `{\n  "mcpServers": {\n    "mcp-tap": { "command": "mcp-tap", "args": ["mcp"] },\n    "tap-npx": { "command": "npx", "args": ["-y", "mcp-tap", "mcp", "--dir", "/logs"] },\n    "tap-node": { "command": "/usr/bin/node", "args": ["/opt/mcp-tap/bin/mcp-tap.js", "mcp"] }\n  }\n}\n`;
    const locations = hostLocations('claude-desktop', H);
    for (const plan of [planWrap(text, 'x', locations, { launcher: SCRIPT }), planUnwrap(text, 'x', locations, {})]) {
      expect(plan.newText).toBe(text);
      expect(plan.results.map((r) => [r.name, r.action, r.kind])).toEqual([
        ['mcp-tap', 'skipped', 'self'],
        ['tap-npx', 'skipped', 'self'],
        ['tap-node', 'skipped', 'self'],
      ]);
    }
    expect(planWrap(text, 'x', locations, { launcher: SCRIPT }).results[0]!.reason).toMatch(/^mcp-tap's own MCP server \(mcp-tap mcp\): never wrapped/);
  });

  it('Claude Code: user and this project\'s local entries, never other projects', () => {
    const f = FIXTURES.find((x) => x.rel === 'claude-code/.claude.json')!;
    const { results } = planWrap(fixtureText(f.rel), 'x', locationsFor(f), { launcher: SCRIPT });
    expect(results.map((r) => `${r.location.scope}:${r.name}:${r.action}`)).toEqual([
      'user:everything:wrapped',
      'user:remote-api:skipped',
      'local:local-everything:wrapped',
    ]);
  });
});

describe('the shape of the edit', () => {
  it('an entry without args gets "args" right after "command", in the object\'s own style', () => {
    const text = '{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "srv", // c\r\n\t\t\t"env": {}\r\n\t\t},\r\n\t\t"b": { "command": "x" }\r\n\t}\r\n}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: SCRIPT });
    expect(newText).toBe(
      '{\r\n\t"mcpServers": {\r\n\t\t"a": {\r\n\t\t\t"command": "/opt/mcp-tap/bin/mcp-tap.js",\r\n\t\t\t"args": ["--name", "a", "--", "srv"], // c\r\n\t\t\t"env": {}\r\n\t\t},\r\n' +
        '\t\t"b": { "command": "/opt/mcp-tap/bin/mcp-tap.js", "args": ["--name", "b", "--", "x"] }\r\n\t}\r\n}',
    );
    expect(planUnwrap(newText, 'x', loc, {}).newText).toBe(text);
  });

  it('multi-line args get one inserted element per line with the same indentation', () => {
    const text = '{"mcpServers": {"a": {\n   "command": "npx",\n   "args": [\n      "-y",\n      "pkg"\n   ]\n}}}\n';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: NPX });
    expect(newText).toBe(
      '{"mcpServers": {"a": {\n   "command": "npx",\n   "args": [\n      "-y",\n      "mcp-tap",\n      "--name",\n      "a",\n      "--",\n      "npx",\n      "-y",\n      "pkg"\n   ]\n}}}\n',
    );
    expect(planUnwrap(newText, 'x', loc, {}).newText).toBe(text);
  });

  it('the command token moves verbatim, escapes and all', () => {
    const text = '{"mcpServers": {"w": {"command": "C:\\\\Tools\\u005cserver.exe", "args": ["a"]}}}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: SCRIPT });
    expect(newText).toContain('"--", "C:\\\\Tools\\u005cserver.exe", "a"');
    expect(planUnwrap(newText, 'x', loc, {}).newText).toBe(text);
  });

  it('"args": [] comes back as "args": [] when the backup shows it, and as no key without a backup', () => {
    const text = '{ "mcpServers": { "e": { "command": "uvx", "args": [ ] } } }';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: SCRIPT });
    expect(newText).toBe('{ "mcpServers": { "e": { "command": "/opt/mcp-tap/bin/mcp-tap.js", "args": ["--name", "e", "--", "uvx" ] } } }');
    expect(planUnwrap(newText, 'x', loc, { backupText: text }).newText).toBe(text);
    expect(planUnwrap(newText, 'x', loc, {}).newText).toBe('{ "mcpServers": { "e": { "command": "uvx" } } }');
  });

  it('"args": [] after Claude Code re-printed the wrapped entry over several lines: back to "args": [], no blank line', () => {
    const text = '{\n  "mcpServers": {\n    "e": {\n      "type": "stdio",\n      "command": "uvx",\n      "args": [],\n      "env": {}\n    }\n  }\n}\n';
    const loc = [{ host: 'claude-code' as const, scope: 'user' as const, file: 'x', serversPath: ['mcpServers'] }];
    const wrapped = planWrap(text, 'x', loc, { launcher: SCRIPT }).newText;
    const reprinted = `${JSON.stringify(JSON.parse(wrapped), null, 2)}\n`;
    expect(reprinted).toContain('"args": [\n        "--name",');
    expect(planUnwrap(reprinted, 'x', loc, { backupText: text }).newText).toBe(text);
  });

  it('a name that is not file-name safe is made safe for --name only', () => {
    const text = '{"mcpServers": {"my server/2": {"command": "x"}}}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: SCRIPT });
    expect(entries(newText, ['mcpServers'])['my server/2']!.args).toEqual(['--name', 'my-server-2', '--', 'x']);
  });

  it('unwraps a hand-written wrap (no --name, command right after options) too', () => {
    const text = '{"mcpServers": {"h": {"command": "mcp-tap", "args": ["--log", "/tmp/x.log", "node", "s.js"]}}}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    expect(planUnwrap(text, 'x', loc, {}).newText).toBe('{"mcpServers": {"h": {"command": "node", "args": ["s.js"]}}}');
  });

  it('removes an args key that was moved away from command (not byte-identical, still the same meaning)', () => {
    const text = '{"mcpServers": {"h": {"command": "/opt/mcp-tap/bin/mcp-tap.js", "env": {}, "args": ["--name", "h", "--", "srv"]}}}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const out = planUnwrap(text, 'x', loc, {}).newText;
    expect(parse(out)).toEqual({ mcpServers: { h: { command: 'srv', env: {} } } });
  });

  it('names select entries; other entries are left alone and not listed', () => {
    const f = FIXTURES[0]!;
    const { results, newText } = planWrap(fixtureText(f.rel), 'x', locationsFor(f), { launcher: SCRIPT, names: new Set(['bare-binary']) });
    expect(results.map((r) => r.name)).toEqual(['bare-binary']);
    expect(entries(newText, ['mcpServers']).everything!.command).toBe('node');
  });

  it('a file whose servers key is missing or empty has nothing to do', () => {
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    for (const text of ['', '{}', '{"mcpServers": {}}', '{"mcpServers": []}']) {
      const p = planWrap(text, 'x', loc, { launcher: SCRIPT });
      expect(p.results).toEqual([]);
      expect(p.newText).toBe(text);
    }
  });

  it('a syntax error is reported with its line and column', () => {
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    expect(() => planWrap('{\n  "mcpServers": {\n    "a": {"command": "x",,}\n  }\n}', '/p/c.json', loc, { launcher: SCRIPT })).toThrow(
      /cannot read \/p\/c\.json: property name expected at line 3, column 26/,
    );
  });

  it('a byte order mark stays in place', () => {
    const text = '\uFEFF{"mcpServers": {"a": {"command": "x"}}}';
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const { newText } = planWrap(text, 'x', loc, { launcher: SCRIPT });
    expect(newText.startsWith('\uFEFF{"mcpServers": {"a": {"command": "/opt/')).toBe(true);
    expect(planUnwrap(newText, 'x', loc, {}).newText).toBe(text);
  });
});

describe('round trip (property)', () => {
  it('any stdio entries in any formatting: wrap gives the documented args; unwrap gives the same bytes', async () => {
    const fc = (await import('fast-check')).default;
    const loc = [{ host: 'custom' as const, scope: 'config' as const, file: 'x', serversPath: ['mcpServers'] }];
    const str = fc.string({ unit: 'grapheme', maxLength: 12 });
    const entry = fc.record(
      {
        command: str.filter((s) => s.length > 0),
        args: fc.array(str, { maxLength: 4 }),
        env: fc.dictionary(fc.string({ maxLength: 5 }), str, { maxKeys: 2 }),
        disabled: fc.boolean(),
      },
      { requiredKeys: ['command'] },
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), entry, { minKeys: 1, maxKeys: 4 }),
        fc.constantFrom<string | number>(0, 2, 3, 4, '\t'),
        fc.boolean(),
        (servers, indent, crlf) => {
          let text = JSON.stringify({ other: [1, 2], mcpServers: servers }, null, indent);
          if (crlf) text = text.replace(/\n/g, '\r\n');
          const wrapped = planWrap(text, 'x', loc, { launcher: NODE });
          const parsed = JSON.parse(wrapped.newText) as { mcpServers: Record<string, { command: string; args: string[] }> };
          for (const r of wrapped.results) {
            const before = servers[r.name]!;
            if (r.action !== 'wrapped') {
              expect(['wrapped', 'remote']).toContain(r.kind); // e.g. a random command that happens to be "npx"
              continue;
            }
            expect(parsed.mcpServers[r.name]!.command).toBe(NODE.command);
            expect(parsed.mcpServers[r.name]!.args).toEqual([...NODE.prefixArgs, '--name', expect.any(String), '--', before.command, ...(before.args ?? [])]);
          }
          const names = new Set(wrapped.results.filter((r) => r.action === 'wrapped').map((r) => r.name));
          expect(planUnwrap(wrapped.newText, 'x', loc, { names, backupText: text }).newText).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('a launcher path TOML cannot hold raw', () => {
  it('is written as a TOML escape, and unwrap gives the file back', () => {
    const text = '[mcp_servers.a]\ncommand = "x"\nargs = ["y"]\n';
    const locations = hostLocations('codex', H).filter((l) => l.file === '/home/u/.codex/config.toml');
    const odd: Launcher = { command: '/opt/odd\x7fdir/mcp-tap.js', prefixArgs: [], form: 'script' };
    const wrapped = planWrap(text, '/home/u/.codex/config.toml', locations, { launcher: odd });
    expect(wrapped.newText).toContain('"/opt/odd\\u007Fdir/mcp-tap.js"');
    const tree = parseConfig(wrapped.newText, 'config.toml');
    const entry = (plainValue(tree!) as { mcp_servers: { a: { command: string; args: string[] } } }).mcp_servers.a;
    expect(entry).toEqual({ command: '/opt/odd\x7fdir/mcp-tap.js', args: ['--name', 'a', '--', 'x', 'y'] });
    expect(planUnwrap(wrapped.newText, '/home/u/.codex/config.toml', locations, { backupText: text }).newText).toBe(text);
  });
});
