/**
 * A real host connects to `mcp-tap mcp` (issue 32): Gemini CLI (from npm; no network, no login, no model
 * call), set up with the `mcpServers` entry the README shows, health-checks it as Connected; `mcp-tap
 * wrap` in the same home leaves that entry as it is. The binary is found as test/e2e/real-hosts.test.ts
 * finds it.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../fixtures/hosts/fixtures.js';

const run = promisify(execFile);
const BIN = join(REPO, 'bin', 'mcp-tap.js');
const GEMINI = join(REPO, 'node_modules', '.bin', 'gemini');

const root = mkdtempSync(join(tmpdir(), 'mcp-tap-mcp-host-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const project = join(root, 'project');
const logs = join(root, 'logs');
mkdirSync(project, { recursive: true });
mkdirSync(logs, { recursive: true });
copyFileSync(join(REPO, 'test', 'fixtures', 'logs', 'everything.jsonl'), join(logs, 'everything.jsonrpc.log'));

const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_STATE_HOME: join(root, 'state') };
for (const k of Object.keys(env)) if (/^(GEMINI_|GOOGLE_|CODEX_|OPENAI_|XDG_CONFIG_HOME$|APPDATA$|MCP_TAP_LOG$)/.test(k)) delete env[k];
env.GEMINI_CLI_NO_RELAUNCH = 'true';

const settings = join(home, '.gemini', 'settings.json');
const settingsText = `${JSON.stringify(
  {
    security: { folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    mcpServers: { 'mcp-tap': { command: process.execPath, args: [BIN, 'mcp', '--dir', logs], timeout: 60000 } },
  },
  null,
  2,
)}\n`;
mkdirSync(dirname(settings), { recursive: true });
writeFileSync(settings, settingsText);

describe('a real host and mcp-tap mcp', () => {
  it('Gemini CLI lists it as Connected; wrap leaves it alone', async () => {
    const gemini = await run(GEMINI, ['mcp', 'list'], { cwd: project, env, timeout: 120_000 });
    const line = `${gemini.stdout}${gemini.stderr}`.split('\n').find((l) => l.includes('mcp-tap:'));
    expect(line).toBeDefined();
    expect(line).toMatch(/ - Connected$/);

    const wrap = await run(process.execPath, [BIN, 'wrap'], { cwd: project, env, timeout: 60_000 });
    expect(wrap.stdout).toContain("skipped   mcp-tap — mcp-tap's own MCP server (mcp-tap mcp): never wrapped, its session would be logged into the logs it reads  (gemini, user)");
    expect(wrap.stdout).toContain('nothing to wrap: no file changed');
    expect(readFileSync(settings, 'utf8')).toBe(settingsText);
  }, 180_000);
});
