/**
 * Property: random stdio entries written in random styles of JSON, TOML and YAML (tables, inline tables,
 * dotted keys, block and flow collections, every quoting style, LF or CRLF, comments, odd indentation):
 * wrap gives each entry the documented command line as each format's reference parser reads it, and
 * unwrap with the backup gives back the exact bytes.
 */
import fc from 'fast-check';
import { parse as parseJsonc } from 'jsonc-parser';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { planUnwrap, planWrap } from '../../src/hosts/plan.js';
import type { Launcher, ServersLocation } from '../../src/hosts/types.js';

const NODE: Launcher = { command: '/usr/bin/node', prefixArgs: ['/opt/mcp-tap/bin/mcp-tap.js'], form: 'node' };

interface Entry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

const str = fc.string({ unit: 'grapheme', maxLength: 10 });
const entry: fc.Arbitrary<Entry> = fc.record(
  { command: str.filter((s) => s.length > 0), args: fc.array(str, { maxLength: 4 }), env: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), str, { maxKeys: 2 }) },
  { requiredKeys: ['command'] },
);
const servers = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), entry, { minKeys: 1, maxKeys: 4 });
/** Style choices: each a small integer the writers below interpret. */
const style = fc.array(fc.nat(7), { minLength: 64, maxLength: 64 });

function pick<T>(choices: number[], i: number, options: readonly T[]): T {
  return options[choices[i % choices.length]! % options.length]!;
}

// --- TOML writer -------------------------------------------------------------------------------
function tomlString(s: string, lit: boolean): string {
  if (lit && !/['\x00-\x08\x0a-\x1f\x7f]/.test(s)) return `'${s}'`;
  return JSON.stringify(s).replace(/\x7f/g, '\\u007F');
}
function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k, false);
}
function tomlArray(items: string[], c: number[], at: number, indent: string): string {
  const vals = items.map((s, i) => tomlString(s, pick(c, at + i, [true, false])));
  if (vals.length && pick(c, at, [false, true])) return `[\n${vals.map((v) => `${indent}    ${v},`).join('\n')}\n${indent}]`;
  return `[${vals.join(pick(c, at + 1, [', ', ',', ' ,  ']))}]`;
}
function writeToml(entries: Record<string, Entry>, c: number[]): string {
  const root = ['# generated', 'model = "m"'];
  const tables: string[] = [''];
  const inline: string[] = [];
  Object.entries(entries).forEach(([name, e], n) => {
    const key = tomlKey(name);
    const indent = pick(c, n, ['', '  ', '\t']);
    const form = pick(c, n + 3, ['table', 'table', 'inline', 'dotted']);
    const cmd = tomlString(e.command, pick(c, n + 5, [true, false]));
    if (form === 'inline') {
      const parts = [`command = ${cmd}`];
      if (e.args) parts.push(`args = [${e.args.map((s) => tomlString(s, false)).join(', ')}]`);
      if (e.env) parts.push(`env = { ${Object.entries(e.env).map(([k, v]) => `${tomlKey(k)} = ${tomlString(v, false)}`).join(', ')} }`);
      inline.push(`${key} = { ${parts.join(', ')} }`);
      return;
    }
    // Dotted keys go at the top, before any [table] header; a table gets its own header.
    const out = form === 'dotted' ? root : tables;
    const prefix = form === 'dotted' ? `mcp_servers.${key}.` : '';
    if (form === 'table') out.push(`[mcp_servers.${key}]${pick(c, n + 7, ['', '  # entry'])}`);
    out.push(`${indent}${prefix}command = ${cmd}${pick(c, n + 9, ['', ' # the program'])}`);
    if (pick(c, n + 11, [false, true])) out.push(`${indent}# a comment line`);
    if (e.args) out.push(`${indent}${prefix}args = ${tomlArray(e.args, c, n + 13, indent)}`);
    if (e.env) for (const [k, v] of Object.entries(e.env)) out.push(`${indent}${prefix}env.${tomlKey(k)} = ${tomlString(v, false)}`);
    if (form === 'table') out.push('');
  });
  // A table made by dotted keys cannot be opened again with a [mcp_servers] header.
  if (inline.length && root.some((l) => /^\s*mcp_servers\./.test(l))) root.push(...inline.map((l) => `mcp_servers.${l}`));
  else if (inline.length) tables.push('[mcp_servers]', ...inline, '');
  return [...root, ...tables].join('\n');
}

// --- YAML writer -------------------------------------------------------------------------------
function yamlScalar(s: string, choice: number): string {
  const plainSafe = /^[A-Za-z_/][A-Za-z0-9_./-]*$/.test(s) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(s);
  if (choice % 3 === 0 && plainSafe) return s;
  if (choice % 3 === 1 && !/[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/.test(s)) return `'${s.replace(/'/g, "''")}'`;
  return JSON.stringify(s);
}
function writeYaml(entries: Record<string, Entry>, c: number[], list: boolean): string {
  const step = pick(c, 0, ['  ', '    ', ' ']);
  const lines = ['# generated', 'name: cfg', `mcpServers:${pick(c, 1, ['', '   # servers'])}`];
  Object.entries(entries).forEach(([name, e], n) => {
    const flow = pick(c, n + 2, [false, false, true]);
    const cmd = yamlScalar(e.command, c[(n + 4) % c.length]!);
    const args = e.args?.map((s, i) => yamlScalar(s, c[(n + i + 6) % c.length]!));
    const env = e.env && Object.entries(e.env).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
    const head = list ? `${step}- ` : `${step}${JSON.stringify(name)}:`;
    const inner = list ? `${step}  ` : `${step}${step}`;
    if (flow) {
      const parts = [...(list ? [`name: ${JSON.stringify(name)}`] : []), `command: ${cmd}`];
      if (args) parts.push(`args: [${args.join(', ')}]`);
      if (env) parts.push(`env: {${env.join(', ')}}`);
      lines.push(`${head}${list ? '' : ' '}{${parts.join(', ')}}`);
      return;
    }
    const body: string[] = [];
    const nameFirst = pick(c, n + 8, [true, false]);
    if (list && nameFirst) body.push(`name: ${JSON.stringify(name)}`);
    body.push(`command: ${cmd}${pick(c, n + 10, ['', '  # program'])}`);
    if (list && !nameFirst) body.push(`name: ${JSON.stringify(name)}`);
    if (args) {
      if (args.length && pick(c, n + 12, [true, false])) {
        const seqIndent = pick(c, n + 14, ['', step]);
        body.push('args:', ...args.map((a) => `${seqIndent}- ${a}`));
      } else body.push(`args: [${args.join(', ')}]`);
    }
    if (env) body.push(env.length ? `env: {${env.join(', ')}}` : 'env: {}');
    if (list) {
      lines.push(`${head}${body[0]}`, ...body.slice(1).map((l) => `${inner}${l}`));
    } else {
      lines.push(head, ...body.map((l) => `${inner}${l}`));
    }
  });
  return `${lines.join('\n')}\n`;
}

function reread(text: string, format: string): Record<string, unknown> {
  if (format === 'toml') return getStaticTOMLValue(parseTOML(text)) as Record<string, unknown>;
  if (format === 'yaml') return parseYaml(text) as Record<string, unknown>;
  return parseJsonc(text) as Record<string, unknown>;
}

function entriesOf(root: Record<string, unknown>, key: string): Record<string, Entry> {
  const v = root[key];
  if (Array.isArray(v)) return Object.fromEntries((v as (Entry & { name: string })[]).map((e) => [e.name, e]));
  return v as Record<string, Entry>;
}

describe('round trip across formats (property)', () => {
  it.each([
    ['toml', 'c.toml', 'mcp_servers', false],
    ['yaml', 'c.yaml', 'mcpServers', false],
    ['yaml', 'c.yaml', 'mcpServers', true],
    ['json', 'c.json', 'mcpServers', false],
  ] as const)('%s (%s, key %s, list %s): wrap gives the documented args; unwrap gives the same bytes', (format, file, key, list) => {
    const loc: ServersLocation[] = [{ host: 'custom', scope: 'config', file, serversPath: [key], list }];
    fc.assert(
      fc.property(servers, style, fc.boolean(), (entries, c, crlf) => {
        let text =
          format === 'toml' ? writeToml(entries, c) : format === 'yaml' ? writeYaml(entries, c, list) : JSON.stringify({ x: 1, [key]: entries }, null, pick(c, 0, [0, 2, '\t']));
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const before = entriesOf(reread(text, format), key);
        expect(Object.keys(before).sort()).toEqual(Object.keys(entries).sort()); // the writer is right
        const wrapped = planWrap(text, file, loc, { launcher: NODE });
        const after = entriesOf(reread(wrapped.newText, format), key);
        for (const r of wrapped.results) {
          const b = entries[r.name]!;
          if (r.action !== 'wrapped') {
            expect(['wrapped', 'remote']).toContain(r.kind); // a random command that happens to be "npx" or "mcp-tap"
            continue;
          }
          expect(after[r.name]!.command).toBe(NODE.command);
          expect(after[r.name]!.args).toEqual([...NODE.prefixArgs, '--name', expect.any(String), '--', b.command, ...(b.args ?? [])]);
          expect(after[r.name]!.env).toEqual(before[r.name]!.env);
        }
        const names = new Set(wrapped.results.filter((r) => r.action === 'wrapped').map((r) => r.name));
        expect(planUnwrap(wrapped.newText, file, loc, { names, backupText: text }).newText).toBe(text);
      }),
      { numRuns: 150 },
    );
  });
});
