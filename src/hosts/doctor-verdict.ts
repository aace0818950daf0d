/** Turns what doctor found about one server into a verdict in plain words. Pure. */
import type { ProbeResult } from './doctor-probe.js';
import type { Resolution } from './resolve-command.js';
import { escapeControl } from '../text/escape.js';

export interface CheckedServer {
  command: string;
  /** Why the entry was not checked at all (HTTP/SSE). */
  skipped?: string;
  /** Why the entry cannot be started (no command, bad args). */
  invalid?: string;
  resolution?: Resolution;
  unresolvedVars: string[];
  probe?: ProbeResult;
  timeoutMs: number;
}

export interface Verdict {
  status: 'ok' | 'problem' | 'skipped';
  headline: string;
  details: string[];
}

/** Text from a server shown safely: control and bidi characters escaped, length bounded. */
export function printable(text: string, max = 300): string {
  const s = escapeControl(text);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function stderrBlock(p: ProbeResult): string[] {
  const lines = p.log.stderr.length ? p.log.stderr.slice(-10) : p.stderrTail.filter((l) => !l.startsWith('mcp-tap: logging to'));
  if (lines.length === 0) return ['it wrote nothing to stderr'];
  return ['last lines of its stderr:', ...lines.map((l) => `  | ${printable(l)}`)];
}

function exitWords(p: ProbeResult): string {
  const e = p.log.exit;
  if (!e) return '';
  if (e.signal) return ` (killed by ${e.signal})`;
  if (e.code !== null) return ` (exit code ${e.code})`;
  return '';
}

function ms(n: number): string {
  return `${Math.round(n)} ms`;
}

/** The verdict for one server. */
export function verdictFor(s: CheckedServer): Verdict {
  if (s.skipped) return { status: 'skipped', headline: `skipped: ${s.skipped}`, details: [] };
  if (s.invalid) return { status: 'problem', headline: `cannot start: ${s.invalid}`, details: [] };
  const details: string[] = [];
  if (s.unresolvedVars.length) {
    details.push(`uses ${s.unresolvedVars.join(', ')}, which the host fills in when it starts the server; checked with the text as it is`);
  }
  const r = s.resolution;
  if (r?.status === 'not-found') {
    const headline = /[\\/]/.test(s.command)
      ? `not found: no such file "${printable(s.command)}"`
      : `not found: "${printable(s.command)}" is not in any directory on PATH`;
    return { status: 'problem', headline, details };
  }
  if (r?.status === 'not-executable') {
    return {
      status: 'problem',
      headline: `not executable: ${printable(r.path)} exists but may not be run (make it executable, or start it through its interpreter, e.g. "node" with the file as first arg)`,
      details,
    };
  }
  if (r?.status === 'directory') {
    return { status: 'problem', headline: `not executable: ${printable(r.path)} is a directory`, details };
  }
  const p = s.probe;
  if (!p) return { status: 'problem', headline: 'not checked', details };
  const nonJson = p.log.nonJsonCount || p.readErrors.length;
  const noiseLine = (): string => {
    const first = p.log.nonJsonStdout[0];
    const sample = first !== undefined ? `: "${printable(first, 120)}"` : p.readErrors[0] ? ` (${printable(p.readErrors[0], 160)})` : '';
    return `non-JSON on stdout: it wrote ${nonJson} line${nonJson === 1 ? '' : 's'} that ${nonJson === 1 ? 'is' : 'are'} not JSON-RPC to stdout${sample}; hosts expect only JSON-RPC messages there (logs belong on stderr)`;
  };
  if (!p.initialized) {
    const f = p.failure;
    if (p.log.spawnError) return { status: 'problem', headline: `could not be started: ${printable(p.log.spawnError)}`, details: [...details, ...stderrBlock(p)] };
    if (nonJson) details.push(noiseLine());
    if (f?.kind === 'closed') {
      return { status: 'problem', headline: `exited before initialize${exitWords(p)}`, details: [...details, ...stderrBlock(p)] };
    }
    if (f?.kind === 'timeout') {
      return { status: 'problem', headline: `no answer to initialize within ${ms(s.timeoutMs)}`, details: [...details, ...stderrBlock(p)] };
    }
    return { status: 'problem', headline: `initialize failed: ${printable(f?.message ?? 'unknown error')}`, details: [...details, ...stderrBlock(p)] };
  }
  const facts = [
    `protocol ${p.protocolVersion ?? 'unknown'}`,
    p.toolsSupported === false ? 'no tools' : p.tools !== undefined ? `${p.tools} tool${p.tools === 1 ? '' : 's'}` : 'tools unknown',
    `initialize answered in ${ms(p.initMs ?? 0)}`,
  ];
  const server = p.serverInfo?.name ? ` — server ${printable(p.serverInfo.name, 80)}${p.serverInfo.version ? ` ${printable(p.serverInfo.version, 40)}` : ''}` : '';
  if (p.toolsError) {
    return { status: 'problem', headline: `tools/list failed: ${printable(p.toolsError)}`, details: [...details, facts.join(', ') + server] };
  }
  if (nonJson) {
    return { status: 'problem', headline: noiseLine(), details: [...details, `otherwise it works: ${facts.join(', ')}${server}`] };
  }
  return { status: 'ok', headline: `ok: ${facts.join(', ')}${server}`, details };
}
