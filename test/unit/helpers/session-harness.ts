/**
 * Drives a Session with in-memory lines and reads its records back exactly as the log file would hold
 * them (serialized with serializeRecord, then parsed).
 */
import { LineSplitter } from '../../../src/framing/line-splitter.js';
import type { LogRecord } from '../../../src/log/record.js';
import { serializeRecord } from '../../../src/log/serialize.js';
import { Session, type SessionOptions } from '../../../src/session/session.js';

export interface Harness {
  session: Session;
  /** Records so far, parsed back from their serialized lines. */
  records: LogRecord[];
  /** Serialized lines so far. */
  lines: string[];
  /** Sends one message (object → JSON text; string → as is) as a whole line; returns its record(s). */
  send(from: 'client' | 'server', msg: unknown, atMs?: number): LogRecord;
  /** Feeds raw bytes through a LineSplitter per direction (chunks may split lines anywhere). */
  push(from: 'client' | 'server' | 'stderr', chunk: Buffer | string, atMs?: number): void;
  end(from: 'client' | 'server' | 'stderr', atMs?: number): void;
  finish(atMs?: number): LogRecord;
  /** Every note code over all records. */
  codes(): string[];
  last(): LogRecord;
}

export function harness(opts: Partial<SessionOptions> = {}, limit = 1024 * 1024): Harness {
  let now = 1_000_000;
  const records: LogRecord[] = [];
  const lines: string[] = [];
  const session = new Session({ id: 'test', ...opts }, ({ record, msgText }) => {
    const text = serializeRecord(record, msgText);
    lines.push(text);
    records.push(JSON.parse(text) as LogRecord);
  });
  const splitters = {
    client: new LineSplitter(limit, (l) => session.onLine('client', l, now)),
    server: new LineSplitter(limit, (l) => session.onLine('server', l, now)),
    stderr: new LineSplitter(limit, (l) => session.onStderr(l, now)),
  };
  const at = (ms?: number) => {
    now = ms === undefined ? now + 1 : 1_000_000 + ms;
  };
  return {
    session,
    records,
    lines,
    send(from, msg, atMs) {
      at(atMs);
      const text = typeof msg === 'string' ? msg : JSON.stringify(msg);
      const data = Buffer.from(text, 'utf8');
      const before = records.length;
      session.onLine(from, { bytes: data.length, data }, now);
      return records[before]!;
    },
    push(from, chunk, atMs) {
      at(atMs);
      splitters[from].push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    },
    end(from, atMs) {
      at(atMs);
      splitters[from].end();
    },
    finish(atMs) {
      at(atMs);
      session.finish(now);
      return records[records.length - 1]!;
    },
    codes() {
      return records.flatMap((r) => (r.notes ?? []).map((n) => n.code));
    },
    last() {
      return records[records.length - 1]!;
    },
  };
}

/** A JSON-RPC request. */
export const req = (id: unknown, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
/** A JSON-RPC result response. */
export const res = (id: unknown, result: unknown = {}) => ({ jsonrpc: '2.0', id, result });
/** A JSON-RPC error response. */
export const err = (id: unknown, code = -32601, message = 'Method not found', data?: unknown) =>
  ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
/** A JSON-RPC notification. */
export const note = (method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };

/** Runs a 2025-11-25 handshake (initialize → result → initialized); returns the harness. */
export function handshake(h: Harness, version = '2025-11-25', serverVersion = version): Harness {
  h.send('client', req(0, 'initialize', { protocolVersion: version, capabilities: { roots: {} }, clientInfo: { name: 'c', version: '1' } }));
  h.send('server', res(0, { protocolVersion: serverVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '2' } }));
  h.send('client', note('notifications/initialized'));
  return h;
}

/** `_meta` of a 2026-07-28 request. */
export const meta2026 = (extra: Record<string, unknown> = {}, version = '2026-07-28') => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  ...extra,
});
