/** `mcp-tap doctor` against server-everything (healthy) and broken fixture servers, through the built CLI. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, REPO } from '../fixtures/hosts/fixtures.js';

const run = promisify(execFile);
const BIN = join(REPO, 'bin', 'mcp-tap.js');
const SERVERS = join(REPO, 'test', 'fixtures', 'servers');
const root = mkdtempSync(join(tmpdir(), 'mcp-tap-doctor-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function doctor(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [BIN, 'doctor', ...args], { cwd: root, env });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** The block of output about one server (from its name line to the next blank line). */
function section(stdout: string, name: string): string {
  const start = stdout.indexOf(`\n${name}  (`);
  expect(start, `no section for ${name} in:\n${stdout}`).toBeGreaterThanOrEqual(0);
  const end = stdout.indexOf('\n\n', start + 1);
  return stdout.slice(start + 1, end);
}

describe('doctor', () => {
  it('server-everything found through the host config is healthy: exit 0, protocol, tools, time', async () => {
    const home = join(root, 'home');
    mkdirSync(join(home, '.cursor'), { recursive: true });
    writeFileSync(
      join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { everything: { command: 'node', args: [EVERYTHING, 'stdio'] }, other: { command: 'not-checked' } } }, null, 2),
    );
    const r = await doctor(['--host', 'cursor', 'everything'], { ...process.env, HOME: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`PATH used to find commands`);
    expect(r.stdout).toContain(`  ${process.env.PATH}\n`);
    const s = section(r.stdout, 'everything');
    expect(s).toContain(`(cursor, user: ${join(home, '.cursor', 'mcp.json')})`);
    expect(s).toMatch(/command {2}node → \/\S+\/node/);
    expect(s).toMatch(/ok: protocol \d{4}-\d{2}-\d{2}, \d+ tools, initialize answered in \d+ ms — server mcp-servers\/everything/);
    expect(r.stdout).not.toContain('other');
    expect(r.stdout).toMatch(/1 healthy, 0 with problems\n$/);
  });

  it('TOML and YAML hosts (Codex, Goose, Continue): found with no flags, env blocks apply, built-ins skipped', async () => {
    const home = join(root, 'home-formats');
    mkdirSync(join(home, '.codex'), { recursive: true });
    mkdirSync(join(home, '.config', 'goose'), { recursive: true });
    mkdirSync(join(home, '.continue'), { recursive: true });
    const codex = join(home, '.codex', 'config.toml');
    writeFileSync(codex, `# codex\n[mcp_servers.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING)}, "stdio"]\n\n[mcp_servers.toml-no-path]\ncommand = "node"\n[mcp_servers.toml-no-path.env]\nPATH = "/nonexistent-toml"\n`);
    const goose = join(home, '.config', 'goose', 'config.yaml');
    writeFileSync(goose, 'extensions:\n  developer: {type: builtin, name: developer, enabled: true}\n  yaml-no-path:\n    type: stdio\n    cmd: node\n    envs:\n      PATH: /nonexistent-yaml\n');
    writeFileSync(join(home, '.continue', 'config.yaml'), 'mcpServers:\n  - name: continue-missing\n    command: mcp-tap-no-such-command\n');
    const env = { ...process.env, HOME: home };
    delete env.XDG_CONFIG_HOME;
    delete env.CODEX_HOME;
    const r = await doctor([], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(section(r.stdout, 'everything')).toContain(`(codex, user: ${codex})`);
    expect(section(r.stdout, 'everything')).toMatch(/ok: protocol \d{4}-\d{2}-\d{2}, \d+ tools/);
    expect(section(r.stdout, 'toml-no-path')).toContain("PATH     /nonexistent-toml  (set in the entry's env)");
    expect(section(r.stdout, 'yaml-no-path')).toContain(`(goose, user: ${goose})`);
    expect(section(r.stdout, 'yaml-no-path')).toContain("PATH     /nonexistent-yaml  (set in the entry's env)");
    expect(section(r.stdout, 'developer')).toContain('skipped: builtin entry: the host runs it itself, there is no command to wrap');
    expect(section(r.stdout, 'continue-missing')).toContain('PROBLEM  not found: "mcp-tap-no-such-command" is not in any directory on PATH');
    expect(r.stdout).toMatch(/1 healthy, 3 with problems, 1 skipped \(not stdio\)\n$/);
  });

  it('broken servers: each gets its plain-words diagnosis, exit 1', async () => {
    const config = join(root, 'broken.json');
    writeFileSync(
      config,
      JSON.stringify(
        {
          mcpServers: {
            missing: { command: 'mcp-tap-no-such-command', args: ['--stdio'] },
            'not-executable': { command: join(SERVERS, 'doctor-crash.mjs') },
            'no-path': { command: 'node', args: ['x.js'], env: { PATH: '/nonexistent-dir' } },
            crash: { command: 'node', args: [join(SERVERS, 'doctor-crash.mjs')] },
            noise: { command: 'node', args: [join(SERVERS, 'doctor-noise.mjs')] },
            silent: { command: 'node', args: [join(SERVERS, 'doctor-silent.mjs')] },
            remote: { type: 'sse', url: 'http://localhost:1/sse' },
          },
        },
        null,
        2,
      ),
    );
    const r = await doctor(['--config', config, '--timeout', '2500']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(section(r.stdout, 'missing')).toContain('PROBLEM  not found: "mcp-tap-no-such-command" is not in any directory on PATH');
    expect(section(r.stdout, 'not-executable')).toContain(`PROBLEM  not executable: ${join(SERVERS, 'doctor-crash.mjs')} exists but may not be run`);
    const noPath = section(r.stdout, 'no-path');
    expect(noPath).toContain('PATH     /nonexistent-dir  (set in the entry\'s env)');
    expect(noPath).toContain('PROBLEM  not found: "node" is not in any directory on PATH');
    expect(section(r.stdout, 'crash')).toContain(
      [
        'PROBLEM  exited before initialize (exit code 3)',
        '    last lines of its stderr:',
        '      | weather-mcp starting',
        '      | Error: WEATHER_API_KEY is not set',
        '      |     at loadConfig (/srv/weather/config.js:12:11)',
      ].join('\n'),
    );
    const noise = section(r.stdout, 'noise');
    expect(noise).toContain('PROBLEM  non-JSON on stdout: it wrote 1 line that is not JSON-RPC to stdout: "Weather MCP server v1.2 listening on stdio"');
    expect(noise).toMatch(/otherwise it works: protocol \d{4}-\d{2}-\d{2}, 1 tool, initialize answered in \d+ ms — server noisy-weather 1\.2\.0/);
    const silent = section(r.stdout, 'silent');
    expect(silent).toContain('PROBLEM  no answer to initialize within 2500 ms');
    expect(silent).toContain('      | waiting for a database that never comes');
    expect(section(r.stdout, 'remote')).toContain('skipped: sse server (http://localhost:1/sse)');
    expect(r.stdout).toMatch(/0 healthy, 6 with problems, 1 skipped \(not stdio\)\n$/);
  });

  it('an entry already wrapped by mcp-tap is checked through the server it runs; --keep-logs keeps the log', async () => {
    const config = join(root, 'wrapped.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { tapped: { command: BIN, args: ['--name', 'tapped', '--', 'node', join(SERVERS, 'doctor-crash.mjs')] } } }));
    const r = await doctor(['--config', config, '--keep-logs']);
    expect(r.code).toBe(1);
    const s = section(r.stdout, 'tapped');
    expect(s).toContain('note     runs through mcp-tap already; checking the server it starts');
    expect(s).toContain('PROBLEM  exited before initialize (exit code 3)');
    const log = /log {6}(\S+)/.exec(s)?.[1];
    expect(log).toMatch(/tapped\.jsonrpc\.log$/);
    rmSync(join(log!, '..'), { recursive: true, force: true });
  });

  it('bad options and names are one-line usage errors', async () => {
    const config = join(root, 'one.json');
    writeFileSync(config, '{"mcpServers": {"a": {"command": "x"}}}');
    expect(await doctor(['--config', config, '--timeout', 'soon'])).toMatchObject({ code: 2, stderr: 'mcp-tap: --timeout takes milliseconds, got "soon"\n' });
    expect(await doctor(['--config', config, 'b'])).toMatchObject({ code: 2, stderr: `mcp-tap: no server named "b" in ${config}\n` });
  });
});
