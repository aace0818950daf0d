/**
 * Qwen Code (the real CLI from npm): a server in ~/.qwen/settings.json and one in the project's
 * .qwen/settings.json (Gemini CLI's format, JSON with comments). Plain `mcp-tap wrap` finds both (the
 * project one is approved again with `qwen mcp approve`: Qwen Code binds approval to the entry's text);
 * `qwen mcp list` health-checks each through mcp-tap as Connected; each log holds Qwen Code's
 * initialize with its clientInfo (its health check calls itself mcp-test-client); `mcp-tap unwrap` gives both files back byte for byte. Offline: no
 * usage statistics, no telemetry, no update check, no folder-trust prompt.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostSandbox, SERVER, wrappedLine } from '../helpers/host-sandbox.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';

const box = hostSandbox('qwen', { QWEN_CODE_NO_RELAUNCH: 'true', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
afterAll(() => box.cleanup());
const entry = (name: string) => `"${name}": {\n      "command": ${JSON.stringify(SERVER.command)},\n      "args": ${JSON.stringify(SERVER.args)},\n      "timeout": 60000\n    }`;
const userText = `{
  // Qwen Code settings: nothing that goes online, no trust prompt
  "security": { "folderTrust": { "enabled": false } },
  "general": { "disableAutoUpdate": true, "enableAutoUpdate": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "mcpServers": {
    ${entry('qwen-user')}
  }
}
`;
const projectText = `{\n  "mcpServers": {\n    ${entry('qwen-project')}\n  }\n}\n`;
const userFile = box.write(join(box.home, '.qwen', 'settings.json'), userText);
const projectFile = box.write(join(box.project, '.qwen', 'settings.json'), projectText);
const settled = { user: '', project: '' };

describe.skipIf(hostsMissing())('real host: Qwen Code', () => {
  it('user and project settings: wrapped, Connected through mcp-tap, initialize logged, unwrapped byte for byte', async () => {
    // Qwen Code migrates a settings file the first time it reads one (it adds "$version"): let it, keep that text
    await box.cli(hostBin('qwen'), ['mcp', 'list']);
    settled.user = readFileSync(userFile, 'utf8');
    settled.project = readFileSync(projectFile, 'utf8');
    expect(settled.user).toContain('// Qwen Code settings');
    const wrap = await box.tap(['wrap']);
    expect(wrap.stdout).toContain(`${userFile}\n  wrapped   qwen-user  (qwen, user)`);
    expect(wrap.stdout).toContain(`${projectFile}\n  wrapped   qwen-project  (qwen, project)`);

    // Qwen Code binds a project server's approval to its config: the wrapped entry is approved again, as a user would
    await box.cli(hostBin('qwen'), ['mcp', 'approve', 'qwen-project']);
    const list = await box.cli(hostBin('qwen'), ['mcp', 'list']);
    const lines = `${list.stdout}${list.stderr}`.split('\n');
    for (const name of ['qwen-user', 'qwen-project']) {
      const line = lines.find((l) => l.includes(`${name}:`));
      expect(line, `${list.stdout}${list.stderr}`).toBeDefined();
      expect(line).toContain(wrappedLine(name));
      expect(line).toMatch(/ - Connected$/);
      // `qwen mcp list` names its health-check client mcp-test-client (its createMcpClient call)
      expect(box.clientInfos(name).map((c) => c.name)).toContain('mcp-test-client');
    }

    const back = await box.tap(['unwrap']);
    expect(back.stdout).toContain('unwrapped 2 servers in 2 files');
    expect(readFileSync(userFile, 'utf8')).toBe(settled.user);
    expect(readFileSync(projectFile, 'utf8')).toBe(settled.project);
  });
});
