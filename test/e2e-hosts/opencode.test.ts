/**
 * opencode (the real CLI from npm): a local server in $XDG_CONFIG_HOME/opencode/opencode.json and one
 * in the project's .opencode/opencode.json (opencode's one-array command, `environment` kept). Plain
 * `mcp-tap wrap` finds both; `opencode mcp list` connects to each through mcp-tap; each log holds
 * opencode's initialize with its clientInfo; `mcp-tap unwrap` gives both files back byte for byte.
 * Offline: no model catalogue fetch, no auto-update, no share, no LSP downloads, no default plugins.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostSandbox, SERVER, wrappedLine } from '../helpers/host-sandbox.js';
import { hostBin, hostsMissing } from '../helpers/real-hosts.js';

const box = hostSandbox('opencode', {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
});
box.env.XDG_CONFIG_HOME = join(box.root, 'xdg');
afterAll(() => box.cleanup());
const command = JSON.stringify([SERVER.command, ...SERVER.args]);
const userFile = box.write(
  join(box.root, 'xdg', 'opencode', 'opencode.json'),
  `{\n  "$schema": "https://opencode.ai/config.json",\n  "autoupdate": false,\n  "share": "disabled",\n  "mcp": {\n    "oc-user": { "type": "local", "command": ${command}, "environment": { "MODE": "user" } }\n  }\n}\n`,
);
const projectFile = box.write(join(box.project, '.opencode', 'opencode.json'), `{\n\t"mcp": {\n\t\t"oc-project": {\n\t\t\t"type": "local",\n\t\t\t"command": ${command},\n\t\t\t"enabled": true\n\t\t}\n\t}\n}\n`);

describe.skipIf(hostsMissing())('real host: opencode', () => {
  it('user and project config: wrapped, connected through mcp-tap, initialize logged, unwrapped byte for byte', async () => {
    // opencode writes a "$schema" key into a config that has none the first time it loads it: let it, keep that text
    await box.cli(hostBin('opencode'), ['mcp', 'list']);
    const userText = readFileSync(userFile, 'utf8');
    const projectText = readFileSync(projectFile, 'utf8');
    expect(projectText).toContain('"oc-project"');
    const wrap = await box.tap(['wrap', '--host', 'opencode']);
    expect(wrap.stdout).toContain(`${userFile}\n  wrapped   oc-user  (opencode, user)`);
    expect(wrap.stdout).toContain(`${projectFile}\n  wrapped   oc-project  (opencode, project)`);

    const list = await box.cli(hostBin('opencode'), ['mcp', 'list']);
    // eslint-disable-next-line no-control-regex
    const text = `${list.stdout}${list.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
    for (const name of ['oc-user', 'oc-project']) {
      expect(text, text).toMatch(new RegExp(`✓ ${name} connected\\n│\\s+${wrappedLine(name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      expect(box.clientInfos(name).map((c) => c.name)).toContain('opencode');
    }

    const back = await box.tap(['unwrap', '--host', 'opencode']);
    expect(back.stdout).toContain('unwrapped 2 servers in 2 files');
    expect(readFileSync(userFile, 'utf8')).toBe(userText);
    expect(readFileSync(projectFile, 'utf8')).toBe(projectText);
  });
});
