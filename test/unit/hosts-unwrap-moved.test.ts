/**
 * Unwrap after a hand edit (issue 27): in a TOML or YAML config, an entry that wrap gave an `args` line
 * gets its original bytes back when the user moved that line elsewhere in the entry, in CRLF files as in
 * LF ones (no stray CR, no joined lines).
 */
import { describe, expect, it } from 'vitest';
import { planUnwrap, planWrap } from '../../src/hosts/plan.js';
import type { Launcher, ServersLocation } from '../../src/hosts/types.js';

const SCRIPT: Launcher = { command: '/opt/mcp-tap/bin/mcp-tap.js', prefixArgs: [], form: 'script' };
const codex: ServersLocation[] = [{ host: 'codex', scope: 'config', file: 'c.toml', serversPath: ['mcp_servers'] }];
const cont: ServersLocation[] = [{ host: 'continue', scope: 'config', file: 'c.yaml', serversPath: ['mcpServers'], list: true }];

/** `text` with the line holding `needle` (and its line end) moved to just after the line holding `after` (null: to the start of the line holding `before`). */
function moveLine(text: string, needle: string, where: { after: string } | { before: string }): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const at = lines.findIndex((l) => l.includes(needle));
  expect(at).toBeGreaterThanOrEqual(0);
  const [line] = lines.splice(at, 1);
  const to = 'after' in where ? lines.findIndex((l) => l.includes(where.after)) + 1 : lines.findIndex((l) => l.includes(where.before));
  expect(to).toBeGreaterThanOrEqual(0);
  lines.splice(to, 0, line!);
  return lines.join(eol);
}

const cases = [
  {
    name: 'TOML',
    file: 'c.toml',
    loc: codex,
    text: '# servers\n[mcp_servers.a]\ncommand = "srv" # the server\nenv = { A = "1" }\ncwd = "/w"\n\n[mcp_servers.b]\ncommand = "other"\nargs = ["x"]\n',
    moves: [{ after: 'cwd = ' }, { after: 'env = ' }, { before: 'command = "/opt' }],
  },
  {
    name: 'YAML',
    file: 'c.yaml',
    loc: cont,
    text: 'name: cfg\nmcpServers:\n  - name: a\n    command: srv   # the server\n    env:\n      A: "1"\n    cwd: /w\n  - name: b\n    command: other\n',
    moves: [{ after: 'cwd: /w' }, { after: 'A: "1"' }, { before: 'command: "/opt' }],
  },
];

describe('unwrap restores the bytes after the args line was moved by hand', () => {
  for (const c of cases) {
    for (const eol of ['\r\n', '\n']) {
      const text = c.text.replace(/\n/g, eol);
      for (const move of c.moves) {
        it(`${c.name} ${eol === '\r\n' ? 'CRLF' : 'LF'}: args moved ${JSON.stringify(move)}`, () => {
          const wrapped = planWrap(text, c.file, c.loc, { launcher: SCRIPT, names: new Set(['a']) });
          expect(wrapped.results.map((r) => [r.name, r.action])).toEqual([['a', 'wrapped']]);
          const edited = moveLine(wrapped.newText, '"--name", "a"', move);
          expect(edited).not.toBe(wrapped.newText);
          if (eol === '\r\n') expect(edited.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
          for (const backupText of [undefined, text]) {
            const back = planUnwrap(edited, c.file, c.loc, { names: new Set(['a']), ...(backupText !== undefined ? { backupText } : {}) });
            expect(back.results.map((r) => [r.name, r.action])).toEqual([['a', 'unwrapped']]);
            expect(back.newText).toBe(text);
          }
        });
      }
    }
  }
});
