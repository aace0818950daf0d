import { describe, expect, it } from 'vitest';
import { chooseLauncher } from '../../src/hosts/launcher.js';

const base = { script: '/usr/lib/node_modules/mcp-tap/bin/mcp-tap.js', execPath: '/usr/bin/node', platform: 'linux' as const, isExecutable: () => true };

describe('chooseLauncher', () => {
  it('the script itself when it can be executed', () => {
    expect(chooseLauncher(base).launcher).toEqual({ command: base.script, prefixArgs: [], form: 'script' });
  });
  it('node + script on Windows, for a script without the execute bit, or with --node', () => {
    const node = { command: '/usr/bin/node', prefixArgs: [base.script], form: 'node' };
    expect(chooseLauncher({ ...base, isExecutable: () => false }).launcher).toEqual(node);
    expect(chooseLauncher({ ...base, node: true }).launcher).toEqual(node);
    expect(chooseLauncher({ ...base, platform: 'win32' }).launcher.form).toBe('node');
  });
  it('npx with --npx, and (with a note) when running from the npx cache', () => {
    expect(chooseLauncher({ ...base, npx: true })).toEqual({ launcher: { command: 'npx', prefixArgs: ['-y', 'mcp-tap'], form: 'npx' } });
    const r = chooseLauncher({ ...base, script: '/home/u/.npm/_npx/1a2b/node_modules/mcp-tap/bin/mcp-tap.js' });
    expect(r.launcher.form).toBe('npx');
    expect(r.note).toMatch(/npx cache/);
  });
});
