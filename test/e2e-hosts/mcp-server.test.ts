/**
 * Real hosts connect to `mcp-tap mcp` (issue 32; installed by `npm run test:hosts`, kept offline): Gemini
 * CLI, given the `mcpServers` entry the README shows, health-checks it as Connected, and `mcp-tap wrap`
 * in that home leaves the entry alone; Claude Code, set up with the README's `claude mcp add mcp-tap --
 * mcp-tap mcp` (mcp-tap by its path), lists it as Connected.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostSandbox } from '../helpers/host-sandbox.js';
import { CLI, ROOT } from '../helpers/paths.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';

const box = hostSandbox('mcp-server', {
  GEMINI_CLI_NO_RELAUNCH: 'true',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
});
afterAll(() => box.cleanup());
const logs = join(box.root, 'logs');
mkdirSync(logs, { recursive: true });
copyFileSync(join(ROOT, 'test', 'fixtures', 'logs', 'everything.jsonl'), join(logs, 'everything.jsonrpc.log'));
const SERVE = [process.execPath, CLI, 'mcp', '--dir', logs];

describe.skipIf(hostsMissing())('real hosts and mcp-tap mcp', () => {
  it('Gemini CLI lists it as Connected; wrap leaves it alone', async () => {
    const settings = box.write(
      join(box.home, '.gemini', 'settings.json'),
      `${JSON.stringify(
        {
          security: { folderTrust: { enabled: false } },
          general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          mcpServers: { 'mcp-tap': { command: SERVE[0], args: SERVE.slice(1), timeout: 60000 } },
        },
        null,
        2,
      )}\n`,
    );
    const text = readFileSync(settings, 'utf8');
    const gemini = await box.cli(hostBin('gemini'), ['mcp', 'list']);
    const line = `${gemini.stdout}${gemini.stderr}`.split('\n').find((l) => l.includes('mcp-tap:'));
    expect(line, gemini.stdout).toMatch(/ - Connected$/);

    const wrap = await box.tap(['wrap', '--host', 'gemini']);
    expect(wrap.stdout).toContain("skipped   mcp-tap — mcp-tap's own MCP server (mcp-tap mcp): never wrapped, its session would be logged into the logs it reads  (gemini, user)");
    expect(wrap.stdout).toContain('nothing to wrap: no file changed');
    expect(readFileSync(settings, 'utf8')).toBe(text);
  });

  it("Claude Code: `claude mcp add mcp-tap -- mcp-tap mcp`, then Connected", async () => {
    const claude = (args: string[]) => box.cli(hostBin('claude'), args);
    await claude(['mcp', 'add', '--scope', 'user', 'mcp-tap', '--', ...SERVE]);
    const list = await claude(['mcp', 'list']);
    const line = `${list.stdout}${list.stderr}`.split('\n').find((l) => l.startsWith('mcp-tap: '));
    expect(line, list.stdout).toBe(`mcp-tap: ${SERVE.join(' ')} - ✔ Connected`);
  });
});
