/**
 * Claude Code (the real CLI from npm), run from a subdirectory of a git work tree: one server in each of
 * its three scopes — user (~/.claude.json), local (~/.claude.json, keyed by the work tree's root) and
 * project (.mcp.json at the work tree's root, which Copilot CLI reads too, and one above the work tree,
 * which Claude Code reads as well; approved through enableAllProjectMcpServers). Plain `mcp-tap wrap`
 * finds all four, the shared file labelled with both hosts; `claude mcp list` health-checks each through
 * mcp-tap as Connected; each log holds Claude Code's initialize with its clientInfo; plain `mcp-tap
 * unwrap` gives every file back byte for byte. Claude Code is kept offline: its API on loopback, no
 * telemetry, no update check, no non-essential traffic.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostSandbox, SERVER, wrappedLine } from '../helpers/host-sandbox.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';

const box = hostSandbox('claude-code', {
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
  ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
});
afterAll(() => box.cleanup());
const sub = join(box.project, 'packages', 'app');
const entry = (name: string) => `"${name}": { "type": "stdio", "command": ${JSON.stringify(SERVER.command)}, "args": ${JSON.stringify(SERVER.args)}, "env": {} }`;
const userFile = box.write(
  join(box.home, '.claude.json'),
  `{\n  "mcpServers": { ${entry('cc-user')} },\n  "projects": {\n    ${JSON.stringify(box.project)}: { "mcpServers": { ${entry('cc-local')} }, "hasTrustDialogAccepted": true }\n  }\n}\n`,
);
const projectFile = box.write(join(box.project, '.mcp.json'), `{\n  "mcpServers": {\n    ${entry('cc-project')}\n  }\n}\n`);
const aboveFile = box.write(join(box.root, '.mcp.json'), `{ "mcpServers": { ${entry('cc-above')} } }\n`);
box.write(join(box.home, '.claude', 'settings.json'), '{ "enableAllProjectMcpServers": true }\n');
box.write(join(sub, 'README.md'), 'a subdirectory of the work tree\n');

const claude = (args: string[]) => box.cli(hostBin('claude'), args, { cwd: sub });

describe.skipIf(hostsMissing())('real host: Claude Code', () => {
  it('user, local and project scope (a .mcp.json above the work tree too): wrapped, Connected through mcp-tap, initialize logged, unwrapped byte for byte', async () => {
    // Claude Code adds its own bookkeeping to ~/.claude.json the first time it runs: let it, then keep that text
    await claude(['mcp', 'list']);
    const files = [userFile, projectFile, aboveFile];
    const texts = files.map((f) => readFileSync(f, 'utf8'));

    const wrap = await box.tap(['wrap'], sub);
    expect(wrap.stdout).toContain(`${userFile}\n  wrapped   cc-user  (claude-code, user)\n  wrapped   cc-local  (claude-code, local to ${box.project})`);
    expect(wrap.stdout).toContain(`${projectFile}\n  wrapped   cc-project  (claude-code, copilot-cli, project)`);
    expect(wrap.stdout).toContain(`${aboveFile}\n  wrapped   cc-above  (claude-code, project)`);
    expect(wrap.stdout).toContain('wrapped 4 servers in 3 files');

    const list = await claude(['mcp', 'list']);
    const lines = `${list.stdout}${list.stderr}`.split('\n');
    for (const name of ['cc-user', 'cc-local', 'cc-project', 'cc-above']) {
      const line = lines.find((l) => l.startsWith(`${name}: `));
      expect(line, `${name} in:\n${list.stdout}`).toBe(`${name}: ${wrappedLine(name)} - ✔ Connected`);
      expect(box.clientInfos(name).map((c) => c.name)).toContain('claude-code');
    }

    const back = await box.tap(['unwrap'], sub);
    expect(back.stdout).toContain('unwrapped 4 servers in 3 files');
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(texts);
  });
});
