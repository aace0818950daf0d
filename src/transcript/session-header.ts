/**
 * The header of one session's export, from its records alone: who is talking, with what, when, and how
 * it ended — from mcp-tap's start, spawn, lifecycle, exit and end events, with the initialize exchange as
 * a fallback for logs written without the analysis. Pure.
 */
import type { LogRecord } from '../log/record.js';
import { num, obj, str } from './field.js';

/** Who is talking, with what, when, and how it ended. Fields are absent when the log does not say. */
export interface SessionHeader {
  session: string;
  name?: string;
  mcpTapVersion?: string;
  node?: string;
  platform?: string;
  arch?: string;
  command?: string;
  args?: string[];
  cwd?: string;
  pid?: number;
  serverPid?: number;
  spawnError?: string;
  clientInfo?: unknown;
  serverInfo?: unknown;
  clientCapabilities?: unknown;
  serverCapabilities?: unknown;
  era?: string;
  protocolVersion?: string;
  offeredVersion?: string;
  /** Epoch ms of the first record (the start event when there is one). */
  start: number;
  /** Epoch ms of the last record. */
  end: number;
  durationMs: number;
  exit?: { code: number | null; signal: string | null };
  /** The session has its `end` record (false: still running, or mcp-tap was killed). */
  ended: boolean;
}

/**
 * The header, fed one record at a time (readers that stream a log). Keeps only the header's fields and
 * the initialize request's params and result.
 */
export class HeaderBuilder {
  private h: SessionHeader | undefined;
  private initParams: Record<string, unknown> | undefined;
  private initResult: Record<string, unknown> | undefined;
  private initSeq: number | undefined;
  private lastTime: number | undefined;

  add(r: LogRecord): void {
    const h = (this.h ??= { session: typeof r.session === 'string' ? r.session : '', start: num(r.time) ?? 0, end: 0, durationMs: 0, ended: false });
    this.lastTime = num(r.time);
    if (r.kind === 'event') headerEvent(h, r);
    else if (r.kind === 'request' && r.method === 'initialize' && this.initParams === undefined) {
      this.initParams = obj(obj(r.msg)?.['params']) ?? {};
      this.initSeq = r.seq;
    } else if (r.kind === 'response' && this.initSeq !== undefined && r.reqSeq === this.initSeq && this.initResult === undefined) {
      this.initResult = obj(obj(r.msg)?.['result']) ?? {};
    }
  }

  finish(): SessionHeader {
    const h: SessionHeader = this.h ? { ...this.h } : { session: '', start: 0, end: 0, durationMs: 0, ended: false };
    h.end = this.lastTime ?? 0;
    const { initParams, initResult } = this;
    // logs written without the analysis (or before its lifecycle event) still name both sides
    if (initParams) {
      h.offeredVersion ??= str(initParams['protocolVersion']);
      if (h.clientInfo === undefined && initParams['clientInfo'] !== undefined) h.clientInfo = initParams['clientInfo'];
      if (h.clientCapabilities === undefined && initParams['capabilities'] !== undefined) h.clientCapabilities = initParams['capabilities'];
      h.era ??= 'handshake';
    }
    if (initResult) {
      h.protocolVersion ??= str(initResult['protocolVersion']);
      if (h.serverInfo === undefined && initResult['serverInfo'] !== undefined) h.serverInfo = initResult['serverInfo'];
      if (h.serverCapabilities === undefined && initResult['capabilities'] !== undefined) h.serverCapabilities = initResult['capabilities'];
    }
    h.durationMs = Math.max(0, h.end - h.start);
    return h;
  }
}

/** What one of mcp-tap's events adds to the header. */
function headerEvent(h: SessionHeader, r: LogRecord): void {
  switch (r.event) {
    case 'start': {
      h.start = num(r.time) ?? h.start;
      h.name = str(r['name']) ?? h.name;
      h.command = str(r['command']);
      const args = r['args'];
      if (Array.isArray(args)) h.args = args.map((a) => (typeof a === 'string' ? a : (JSON.stringify(a) ?? '')));
      h.cwd = str(r['cwd']);
      h.pid = num(r['pid']);
      const v = obj(r['versions']);
      if (v) {
        h.mcpTapVersion = str(v['mcpTap']);
        h.node = str(v['node']);
        h.platform = str(v['platform']);
        h.arch = str(v['arch']);
      }
      break;
    }
    case 'spawn':
      h.serverPid = num(r['serverPid']);
      break;
    case 'spawn-error':
      h.spawnError = str(r['error']) ?? 'the server could not be started';
      break;
    case 'lifecycle':
      for (const k of ['era', 'protocolVersion', 'offeredVersion'] as const) {
        const v = str(r[k]);
        if (v !== undefined) h[k] = v;
      }
      for (const k of ['clientInfo', 'serverInfo', 'clientCapabilities', 'serverCapabilities'] as const) {
        if (r[k] !== undefined && r[k] !== null) h[k] = r[k];
      }
      break;
    case 'exit':
      h.exit = { code: num(r['code']) ?? null, signal: str(r['signal']) ?? null };
      break;
    case 'end':
      h.ended = true;
      if (!h.exit && (r['exitCode'] !== undefined || r['exitSignal'] !== undefined)) {
        const code = num(r['exitCode']) ?? null;
        const signal = str(r['exitSignal']) ?? null;
        if (code !== null || signal !== null) h.exit = { code, signal };
      }
      break;
    default:
  }
}

/** `name version` (and title) of a clientInfo/serverInfo value, or undefined. */
export function describeImplementation(info: unknown): string | undefined {
  const o = obj(info);
  if (!o) return info === undefined || info === null ? undefined : JSON.stringify(info);
  const name = str(o['name']) ?? '(no name)';
  const version = str(o['version'])?.trim();
  const title = str(o['title']);
  return `${name}${version ? ` ${version}` : ''}${title !== undefined && title !== name ? ` (${title})` : ''}`;
}
