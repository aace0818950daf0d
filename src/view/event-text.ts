/**
 * mcp-tap's own events as `tail` words them (pure): the server's start, exit and signals, the lifecycle,
 * gaps and sink losses; HTTP mode's events come from http-event-text.ts. Wire strings go through wireText.
 */
import type { LogRecord } from '../log/record.js';
import { asObject, shorten } from './format.js';
import { httpEventText } from './http-event-text.js';
import type { Palette, Seg } from './line-style.js';
import { extraFields, versionSuffix } from './record-parts.js';
import { wireText } from './wire-text.js';

/** The method column of an event record. */
export function eventText(r: LogRecord, c: Palette, max: number): Seg[] {
  const ev = typeof r.event === 'string' ? r.event : undefined;
  const t = (v: unknown, n = 80) => wireText(v, n);
  switch (ev) {
    case 'spawn':
      return [['server started', c.gray], [typeof r.serverPid === 'number' ? `, pid ${r.serverPid}` : '', c.gray]];
    case 'spawn-error':
      return [[`server could not be started: ${t(r.error, max)}`, c.red]];
    case 'lifecycle':
      return [[lifecycleText(r, max), c.gray]];
    case 'stdin-closed':
      return [['host closed stdin (client → server ended)', c.gray]];
    case 'stdout-closed':
      return [['server closed stdout (server → client ended)', c.gray]];
    case 'host-gone':
      return [[`host stopped reading mcp-tap's stdout${r.error !== undefined ? ` (${t(r.error, 60)})` : ''}`, c.yellow]];
    case 'signal':
      return [[`mcp-tap received ${t(r.signal, 20)}, forwarded to the server`, c.gray]];
    case 'kill':
      return [[`server did not exit in time: sent ${t(r.signal, 20)}${r.reason !== undefined ? ` (${t(r.reason, 80)})` : ''}`, c.yellow]];
    case 'exit': {
      const bad = (typeof r.code === 'number' && r.code !== 0) || typeof r.signal === 'string';
      return [[exitText(r.code, r.signal), bad ? c.red : c.gray]];
    }
    case 'gap': {
      const lost = typeof r.lost === 'number' ? r.lost : '?';
      const reason = r.reason !== undefined ? ` (${t(r.reason, 40)})` : '';
      const err = r.error !== undefined ? `: ${t(r.error, 120)}` : '';
      return [[`${lost} record(s) lost${reason}${err}`, c.red]];
    }
    case 'log-error':
      return [[`log write failed: ${t(r.error, 120)}${typeof r.lost === 'number' ? ` (${r.lost} lost)` : ''}`, c.red]];
    case 'http':
    case 'refused':
    case 'upstream-error':
    case 'exchange':
    case 'auth':
    case 'session-id':
      return httpEventText(r, ev, c, max);
    case 'sink-gap':
      return [[`${typeof r.lost === 'number' ? r.lost : '?'} lost by ${t(r.sink, 60)}${r.reason !== undefined ? ` (${t(r.reason, 40)})` : ''}; the log is complete`, c.yellow]];
    default: {
      const extra = extraFields(r);
      const name = ev !== undefined ? t(ev, 40) : 'event';
      const json = Object.keys(extra).length ? ` ${wireText(extra, Math.max(20, max - name.length - 1))}` : '';
      return [[name, c.gray], [json, c.gray]];
    }
  }
}

/** `exit code 0`, `killed by SIGTERM`, as the separators and exit events say it. */
export function exitText(code: unknown, signal: unknown): string {
  if (typeof signal === 'string' && signal) return `server killed by ${wireText(signal, 20)}`;
  if (typeof code === 'number') return `server exited with code ${code}`;
  return 'server exited';
}

function lifecycleText(r: LogRecord, max: number): string {
  const parts: string[] = [];
  const pv = r.protocolVersion;
  if (pv !== undefined) parts.push(`protocol ${wireText(pv, 30)}`);
  const offered = r.offeredVersion ?? r.offered;
  if (offered !== undefined && offered !== pv) parts.push(`offered ${wireText(offered, 30)}`);
  const who = (label: string, v: unknown) => {
    const o = asObject(v);
    if (!o) return;
    parts.push(`${label} ${wireText(o.name ?? '?', 40)}${versionSuffix(o.version)}`);
  };
  who('client', r.clientInfo);
  who('server', r.serverInfo);
  if (r.era !== undefined && r.era !== 'handshake') parts.push(wireText(r.era, 20));
  return shorten(parts.length ? parts.join(' · ') : 'lifecycle', max);
}
