/**
 * GitHub Copilot CLI (the real CLI from npm), offline (COPILOT_OFFLINE=true) with a stub
 * OpenAI-compatible provider on loopback, run from a subdirectory of a git work tree: a server in
 * ~/.copilot/mcp-config.json (XDG_CONFIG_HOME set elsewhere, which Copilot ignores), one in the work
 * tree root's .mcp.json (which Claude Code reads too), one in a parent directory's .github/mcp.json (no
 * .mcp.json beside it). Plain `mcp-tap wrap` finds all three, the shared file labelled with both hosts;
 * one prompt (`copilot -p`) starts each through mcp-tap; each log holds Copilot's initialize with its
 * clientInfo (copilot-cli). Copilot ends its servers at exit with SIGTERM and, soon after, SIGKILL: a
 * log left without an end record reads "mcp-tap was killed" in `mcp-tap export`, never "still running".
 * Plain `mcp-tap unwrap` gives every file back byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostSandbox, SERVER } from '../helpers/host-sandbox.js';
import { readRecords } from '../helpers/log.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';
import { startStubProvider, type StubProvider } from '../helpers/stub-openai.js';

const box = hostSandbox('copilot', {
  COPILOT_OFFLINE: 'true',
  COPILOT_AUTO_UPDATE: 'false',
  COPILOT_ALLOW_ALL: 'true',
  COPILOT_MODEL: 'stub-model',
  COPILOT_PROVIDER_TYPE: 'openai',
  COPILOT_PROVIDER_API_KEY: 'not-a-key',
  COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '128000',
  COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: '4096',
});
box.env.XDG_CONFIG_HOME = join(box.root, 'xdg');
let provider: StubProvider;
beforeAll(async () => {
  provider = await startStubProvider();
  box.env.COPILOT_PROVIDER_BASE_URL = provider.baseUrl;
});
afterAll(async () => {
  await provider?.close();
  box.cleanup();
});
const entry = (name: string) => `"${name}": { "type": "local", "command": ${JSON.stringify(SERVER.command)}, "args": ${JSON.stringify(SERVER.args)}, "tools": ["*"] }`;
const config = (name: string) => `{\n  "mcpServers": {\n    ${entry(name)}\n  }\n}\n`;
const sub = join(box.project, 'packages', 'app');
const files = {
  user: box.write(join(box.home, '.copilot', 'mcp-config.json'), config('cp-user')),
  shared: box.write(join(box.project, '.mcp.json'), config('cp-shared')),
  github: box.write(join(box.project, 'packages', '.github', 'mcp.json'), config('cp-github')),
};
box.write(join(sub, 'README.md'), 'a subdirectory of the work tree\n');

describe.skipIf(hostsMissing())('real host: GitHub Copilot CLI', () => {
  it('~/.copilot, the root .mcp.json and a parent .github/mcp.json: wrapped, started through mcp-tap by one prompt from a subdirectory, initialize logged, killed noticed, unwrapped byte for byte', async () => {
    const wrap = await box.tap(['wrap'], sub);
    expect(wrap.stdout).toContain(`${files.user}\n  wrapped   cp-user  (copilot-cli, user)`);
    expect(wrap.stdout).toContain(`${files.shared}\n  wrapped   cp-shared  (claude-code, copilot-cli, project)`);
    expect(wrap.stdout).toContain(`${files.github}\n  wrapped   cp-github  (copilot-cli, project)`);
    expect(wrap.stdout).toContain('wrapped 3 servers in 3 files');

    const prompt = await box.cli(hostBin('copilot'), ['-p', 'Say ok.', '--allow-all-tools', '--no-auto-update'], { timeout: 150_000, cwd: sub });
    expect(provider.requests.some((r) => r.startsWith('POST ') && r.endsWith('/chat/completions')), `${prompt.stdout}\n${prompt.stderr}\n${provider.requests.join('\n')}`).toBe(true);
    for (const name of ['cp-user', 'cp-shared', 'cp-github']) {
      const infos = box.clientInfos(name);
      expect(infos.length, name).toBeGreaterThan(0);
      expect(infos[0]!.name).toBe('copilot-cli');
      // Copilot stops its servers with SIGTERM and SIGKILL soon after: mcp-tap either ends in between (an end
      // record) or is killed (none), and then the export must say so, never "still running"
      const log = join(box.state, 'mcp-tap', `${name}.jsonrpc.log`);
      const ended = readRecords(log).some((r) => r.event === 'end');
      const md = await box.tap(['export', '--format', 'md', log]);
      expect(md.stdout).not.toContain('still running');
      if (!ended) expect(md.stdout).toContain('mcp-tap was killed');
    }

    const back = await box.tap(['unwrap'], sub);
    expect(back.stdout).toContain('unwrapped 3 servers in 3 files');
    for (const [key, file] of Object.entries(files)) expect(readFileSync(file, 'utf8'), key).toBe(config(`cp-${key}`));
  });
});
