/**
 * Real hosts from npm (test/hosts/package.json, no network, no login, no model call): in a fresh home holding a
 * Gemini CLI settings.json and a Codex CLI config.toml, `mcp-tap wrap` with no flags finds and wraps
 * both; `gemini mcp list` health-checks the wrapped server as Connected and mcp-tap's log holds that
 * session's initialize; `codex mcp get <name> --json` reads mcp-tap back as the command, with the file's
 * comments kept; `mcp-tap unwrap` gives both files back byte for byte.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EVERYTHING, REPO } from '../fixtures/hosts/fixtures.js';
import { readRecords } from '../helpers/log.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';

const run = promisify(execFile);
const BIN = join(REPO, 'bin', 'mcp-tap.js');
const GEMINI = hostBin('gemini');
const CODEX = hostBin('codex');
/** What wrap writes as `command` (see docs/host-integration.md). */
const LAUNCH = (() => {
  try {
    accessSync(BIN, constants.X_OK);
    return { command: BIN, prefix: [] as string[] };
  } catch {
    return { command: process.execPath, prefix: [BIN] };
  }
})();

const root = mkdtempSync(join(tmpdir(), 'mcp-tap-real-hosts-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const project = join(root, 'project');
const state = join(root, 'state');
mkdirSync(project, { recursive: true });

/** The environment of every process here: the temp home and state dir, nothing of the real user's. */
const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_STATE_HOME: state };
for (const k of Object.keys(env)) if (/^(GEMINI_|GOOGLE_|CODEX_|OPENAI_|XDG_CONFIG_HOME$|APPDATA$|MCP_TAP_LOG$)/.test(k)) delete env[k];
// Gemini CLI otherwise starts itself a second time (for a larger heap): half its start-up time here.
env.GEMINI_CLI_NO_RELAUNCH = 'true';

const geminiFile = join(home, '.gemini', 'settings.json');
const geminiText = `{
  // Gemini CLI settings: no folder trust prompt, nothing that goes online
  "security": { "folderTrust": { "enabled": false } },
  "general": { "enableAutoUpdate": false, "enableAutoUpdateNotification": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "mcpServers": {
    "everything": {
      "command": "node",
      "args": [${JSON.stringify(EVERYTHING)}, "stdio"],
      "timeout": 60000
    }
  }
}
`;
const codexFile = join(home, '.codex', 'config.toml');
const codexText = [
  '# Codex CLI configuration\r',
  'model = "gpt-5-codex"\r',
  '\r',
  '[mcp_servers.everything]\r',
  '# the reference server, over stdio\r',
  `command = "node"   # found on PATH\r`,
  `args = [${JSON.stringify(EVERYTHING)}, 'stdio']\r`,
  'startup_timeout_sec = 30\r',
  '',
].join('\n');
for (const [file, text] of [
  [geminiFile, geminiText],
  [codexFile, codexText],
]) {
  mkdirSync(dirname(file!), { recursive: true });
  writeFileSync(file!, text!);
}

async function cli(command: string, args: string[], timeout = 120_000): Promise<{ stdout: string; stderr: string }> {
  return run(command, args, { cwd: project, env, timeout });
}

describe.skipIf(hostsMissing())('real hosts: Gemini CLI and Codex CLI', () => {
  it('wrap with no flags finds both; each host runs or reads the wrapped entry; unwrap restores the bytes', async () => {
    const { stdout } = await cli(process.execPath, [BIN, 'wrap']);
    expect(stdout).toContain(`${geminiFile}\n  wrapped   everything  (gemini, user)`);
    expect(stdout).toContain(`${codexFile}\n  wrapped   everything  (codex, user)`);
    expect(stdout).toContain('wrapped 2 servers in 2 files');

    // Gemini CLI starts the entry (through mcp-tap) to health-check it.
    const gemini = await cli(GEMINI, ['mcp', 'list']);
    const line = `${gemini.stdout}${gemini.stderr}`.split('\n').find((l) => l.includes('everything:'));
    expect(line).toBeDefined();
    expect(line).toContain(`${LAUNCH.command} ${[...LAUNCH.prefix, '--name', 'everything', '--', 'node', EVERYTHING, 'stdio'].join(' ')}`);
    expect(line).toMatch(/ - Connected$/);
    const records = readRecords(join(state, 'mcp-tap', 'everything.jsonrpc.log'));
    expect(records.some((r) => r.from === 'client' && r.kind === 'request' && r.method === 'initialize')).toBe(true);
    expect(records.some((r) => r.from === 'server' && r.kind === 'response' && r.method === 'initialize')).toBe(true);

    // Codex CLI reads the wrapped entry back; the file keeps its comments and CRLF line ends.
    const codex = await cli(CODEX, ['mcp', 'get', 'everything', '--json']);
    const got = JSON.parse(codex.stdout) as { transport: { type: string; command: string; args: string[] } };
    expect(got.transport).toMatchObject({ type: 'stdio', command: LAUNCH.command, args: [...LAUNCH.prefix, '--name', 'everything', '--', 'node', EVERYTHING, 'stdio'] });
    const wrappedToml = readFileSync(codexFile, 'utf8');
    for (const comment of ['# Codex CLI configuration\r\n', '# the reference server, over stdio\r\n', '   # found on PATH\r\n']) expect(wrappedToml).toContain(comment);

    const back = await cli(process.execPath, [BIN, 'unwrap']);
    expect(back.stdout).toContain('unwrapped 2 servers in 2 files');
    expect(readFileSync(geminiFile, 'utf8')).toBe(geminiText);
    expect(readFileSync(codexFile, 'utf8')).toBe(codexText);
  }, 180_000);
});
