/**
 * Plain `wrap` (no flags) from a subdirectory of a git work tree finds what the hosts themselves read
 * there (each rule checked against the real host, see docs/host-integration.md): Qwen Code's and Kilo
 * CLI's configs, Claude Code's local entries keyed by the work tree's root, every parent `.mcp.json`
 * (above the work tree too), Copilot CLI's ~/.copilot with XDG_CONFIG_HOME set and its .github/mcp.json,
 * opencode's .opencode/; a .mcp.json both Claude Code and Copilot CLI read is labelled with both;
 * `unwrap` gives every file back byte for byte. `doctor` substitutes opencode's {env:VAR}.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, REPO } from '../fixtures/hosts/fixtures.js';

const run = promisify(execFile);
const BIN = join(REPO, 'bin', 'mcp-tap.js');
const root = mkdtempSync(join(tmpdir(), 'mcp-tap-discovery-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const xdg = join(root, 'xdg');
const repo = join(root, 'repo');
const cwd = join(repo, 'pkg', 'app');
mkdirSync(join(repo, '.git'), { recursive: true });
mkdirSync(cwd, { recursive: true });
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: join(root, 'state') };
for (const k of ['CLAUDE_CONFIG_DIR', 'COPILOT_HOME', 'QWEN_HOME', 'OPENCODE_CONFIG', 'APPDATA', 'MCP_TAP_LOG', 'GEMINI_CLI_HOME', 'CODEX_HOME']) delete env[k];

const std = (name: string) => `{ "mcpServers": { "${name}": { "command": "node", "args": ["${name}.js"] } } }\n`;
const oc = (name: string) => `{ "mcp": { "${name}": { "type": "local", "command": ["node", "${name}.js"] } } }\n`;
const files: Record<string, string> = {
  [join(home, '.qwen', 'settings.json')]: std('qwen-user'),
  [join(cwd, '.qwen', 'settings.json')]: std('qwen-project'),
  [join(xdg, 'kilo', 'kilo.json')]: oc('kilo-user'),
  [join(cwd, '.kilo', 'kilo.json')]: oc('kilo-project'),
  [join(home, '.claude.json')]: `{ "projects": { ${JSON.stringify(repo)}: { "mcpServers": { "claude-local": { "command": "node", "args": ["l.js"] } } }, ${JSON.stringify(cwd)}: { "mcpServers": { "not-read": { "command": "x" } } } } }\n`,
  [join(repo, '.mcp.json')]: std('shared'),
  [join(root, '.mcp.json')]: std('above'),
  [join(home, '.copilot', 'mcp-config.json')]: std('copilot-user'),
  [join(repo, '.github', 'mcp.json')]: std('copilot-github'),
  [join(repo, '.opencode', 'opencode.json')]: oc('opencode-dot'),
};
for (const [file, text] of Object.entries(files)) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('wrap finds what the hosts read, from a subdirectory of a git work tree', () => {
  it('every host file, labelled with each host that reads it; unwrap restores every byte', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'wrap'], { cwd, env });
    const want: [string, string][] = [
      [join(home, '.qwen', 'settings.json'), 'qwen-user  (qwen, user)'],
      [join(cwd, '.qwen', 'settings.json'), 'qwen-project  (qwen, project)'],
      [join(xdg, 'kilo', 'kilo.json'), 'kilo-user  (kilo, user)'],
      [join(cwd, '.kilo', 'kilo.json'), 'kilo-project  (kilo, project)'],
      [join(home, '.claude.json'), `claude-local  (claude-code, local to ${repo})`],
      [join(repo, '.mcp.json'), 'shared  (claude-code, copilot-cli, project)'],
      [join(root, '.mcp.json'), 'above  (claude-code, project)'],
      [join(home, '.copilot', 'mcp-config.json'), 'copilot-user  (copilot-cli, user)'],
      [join(repo, '.github', 'mcp.json'), 'copilot-github  (copilot-cli, project)'],
      [join(repo, '.opencode', 'opencode.json'), 'opencode-dot  (opencode, project)'],
    ];
    for (const [file, line] of want) expect(stdout).toContain(`${file}\n  wrapped   ${line}`);
    expect(stdout).not.toContain('not-read');
    expect(stdout).toContain(`wrapped ${want.length} servers in ${want.length} files`);
    expect(readFileSync(join(xdg, 'kilo', 'kilo.json'), 'utf8')).toContain('"--name", "kilo-user", "--", "node"');

    const back = await run(process.execPath, [BIN, 'unwrap'], { cwd, env });
    expect(back.stdout).toContain(`unwrapped ${want.length} servers in ${want.length} files`);
    for (const [file, text] of Object.entries(files)) expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it("doctor runs opencode's {env:VAR} as opencode does: the server named through a variable starts", async () => {
    const dir = join(root, 'doctor');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'opencode.json');
    writeFileSync(file, `{ "mcp": { "everything": { "type": "local", "command": ["{env:TAP_NODE}", ${JSON.stringify(EVERYTHING)}, "stdio"], "environment": { "X": "{env:TAP_UNSET}" } } } }\n`);
    const r = await run(process.execPath, [BIN, 'doctor', '--config', file, '--host', 'opencode'], { cwd: dir, env: { ...env, TAP_NODE: process.execPath } }).catch((e: { stdout: string; stderr: string }) => e);
    expect(r.stdout).toMatch(/everything  \(opencode, config: .*\)\n  command  .*\n  ok: protocol /);
    expect(r.stdout).not.toContain('{env:TAP_NODE}');
  });
});
