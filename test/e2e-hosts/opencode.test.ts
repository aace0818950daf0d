/**
 * opencode (the real CLI from npm), run from a subdirectory of a git work tree: a local server in
 * $XDG_CONFIG_HOME/opencode/opencode.json, one in config.json beside it (the older name opencode still
 * reads), one in the work tree root's .opencode/opencode.json and one in
 * a parent's opencode.jsonc whose command names node through `{env:TAP_NODE}` (opencode's one-array
 * command, `environment` kept); an opencode.json above the work tree is not opencode's. Plain `mcp-tap
 * wrap` finds the four and leaves the `{env:…}` as written; `opencode mcp list` connects to each through
 * mcp-tap (the variable substituted by opencode); `mcp-tap doctor` substitutes it as opencode does; each
 * log holds opencode's initialize with its clientInfo; plain `mcp-tap unwrap` gives the files back byte
 * for byte. Offline: no model catalogue fetch, no auto-update, no share, no LSP downloads, no default
 * plugins.
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
  TAP_NODE: SERVER.command,
});
box.env.XDG_CONFIG_HOME = join(box.root, 'xdg');
afterAll(() => box.cleanup());
const command = JSON.stringify([SERVER.command, ...SERVER.args]);
const sub = join(box.project, 'packages', 'app');
const userFile = box.write(
  join(box.root, 'xdg', 'opencode', 'opencode.json'),
  `{\n  "$schema": "https://opencode.ai/config.json",\n  "autoupdate": false,\n  "share": "disabled",\n  "mcp": {\n    "oc-user": { "type": "local", "command": ${command}, "environment": { "MODE": "user" } }\n  }\n}\n`,
);
const legacyFile = box.write(join(box.root, 'xdg', 'opencode', 'config.json'), `{ "mcp": { "oc-legacy": { "type": "local", "command": ${command} } } }\n`);
const projectFile = box.write(join(box.project, '.opencode', 'opencode.json'), `{\n\t"mcp": {\n\t\t"oc-project": {\n\t\t\t"type": "local",\n\t\t\t"command": ${command},\n\t\t\t"enabled": true\n\t\t}\n\t}\n}\n`);
const envCommand = JSON.stringify(['{env:TAP_NODE}', ...SERVER.args]);
const parentFile = box.write(join(box.project, 'packages', 'opencode.jsonc'), `{\n  // a server named through a variable\n  "mcp": { "oc-env": { "type": "local", "command": ${envCommand} } }\n}\n`);
const aboveText = `{ "mcp": { "oc-above": { "type": "local", "command": ${command} } } }\n`;
const aboveFile = box.write(join(box.root, 'opencode.json'), aboveText);
box.write(join(sub, 'README.md'), 'a subdirectory of the work tree\n');
const opencode = (args: string[]) => box.cli(hostBin('opencode'), args, { cwd: sub });

describe.skipIf(hostsMissing())('real host: opencode', () => {
  it('user configs, .opencode/ at the work tree root and a parent opencode.jsonc with {env:…}: wrapped, connected through mcp-tap, initialize logged, unwrapped byte for byte', async () => {
    // opencode writes a "$schema" key into a config that has none the first time it loads it: let it, keep that text
    await opencode(['mcp', 'list']);
    const texts = [userFile, legacyFile, projectFile, parentFile].map((f) => readFileSync(f, 'utf8'));
    expect(texts[2]).toContain('"oc-project"');
    const wrap = await box.tap(['wrap'], sub);
    expect(wrap.stdout).toContain(`${userFile}\n  wrapped   oc-user  (opencode, user)`);
    expect(wrap.stdout).toContain(`${legacyFile}\n  wrapped   oc-legacy  (opencode, user)`);
    expect(wrap.stdout).toContain(`${projectFile}\n  wrapped   oc-project  (opencode, project)`);
    expect(wrap.stdout).toContain(`${parentFile}\n  wrapped   oc-env  (opencode, project)`);
    expect(wrap.stdout).toContain('wrapped 4 servers in 4 files');
    expect(readFileSync(parentFile, 'utf8')).toContain('"--","{env:TAP_NODE}",');

    const list = await opencode(['mcp', 'list']);
    // eslint-disable-next-line no-control-regex
    const text = `${list.stdout}${list.stderr}`.replace(/\u001b\[[0-9;]*m/g, '');
    // opencode prints the command it runs: for oc-env, with the variable substituted
    for (const name of ['oc-user', 'oc-legacy', 'oc-project', 'oc-env']) {
      expect(text, text).toMatch(new RegExp(`✓ ${name} connected\\n│\\s+${wrappedLine(name).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      expect(box.clientInfos(name).map((c) => c.name)).toContain('opencode');
    }
    expect(text).not.toContain('oc-above');

    const doctor = await box.tap(['doctor', '--host', 'opencode', 'oc-env'], sub);
    // doctor checks the server behind mcp-tap with the variable substituted as opencode does
    expect(doctor.stdout).toContain(`oc-env  (opencode, project: ${parentFile})\n  note     runs through mcp-tap already; checking the server it starts\n  command  ${SERVER.command}\n  ok: protocol `);

    const back = await box.tap(['unwrap'], sub);
    expect(back.stdout).toContain('unwrapped 4 servers in 4 files');
    expect([userFile, legacyFile, projectFile, parentFile].map((f) => readFileSync(f, 'utf8'))).toEqual(texts);
    expect(readFileSync(aboveFile, 'utf8')).toBe(aboveText);
  });
});
