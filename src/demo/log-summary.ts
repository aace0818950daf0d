/**
 * What the demo reads back from the log: a summary of one session's records. Pure: records in, summary
 * out. Latencies come from the records' `ms` fields; when an answer has none, from the time between the
 * request and the answer with the same id.
 */
import type { LogRecord } from '../log/record.js';

export interface CallLatency {
  method: string;
  target?: string;
  ms: number;
  /** 'log': the record's own `ms`; 'times': computed from the two records' times. */
  source: 'log' | 'times';
  isError?: true;
}

export interface RecordedSummary {
  session: string;
  records: number;
  byKind: Record<string, number>;
  /** Requests by the side that sent them. */
  requests: { client: number; server: number };
  /** Requests that got a response or an error. */
  answered: number;
  /** Messages relayed (records of client/server JSON-RPC lines, stderr excluded). */
  messages: { client: number; server: number };
  stderrLines: number;
  /** Findings by code, in order of first appearance. */
  notes: Array<{ code: string; text: string; count: number }>;
  calls: CallLatency[];
  /** mcp-tap's own events, in order: `stdin-closed`, `kill SIGTERM`, `exit signal SIGTERM`, … */
  events: string[];
  exit?: { code: number | null; signal: string | null };
  /** Records or bytes the log says it lost (gap events). */
  lost: number;
  /** The session has its `end` record. */
  ended: boolean;
}

const MESSAGE_KINDS = new Set(['request', 'response', 'error', 'notification', 'batch', 'invalid']);

/** A message's id as a pairing key: the id's type is part of it (`1` and `"1"` differ). */
const idKey = (side: string, id: unknown): string => `${side}:${typeof id}:${JSON.stringify(id)}`;

/** Describes one event record in a few words. */
function eventText(r: LogRecord): string {
  const x = r as Record<string, unknown>;
  switch (r.event) {
    case 'kill':
    case 'signal':
      return `${r.event} ${String(x['signal'])}`;
    case 'exit':
      return x['signal'] ? `exit by ${String(x['signal'])}` : `exit ${String(x['code'])}`;
    default:
      return String(r.event);
  }
}

/** Summarizes the records of one session (pass only that session's records, in file order). */
export function summarizeSession(records: readonly LogRecord[]): RecordedSummary {
  const s: RecordedSummary = {
    session: records[0]?.session ?? '',
    records: records.length,
    byKind: {},
    requests: { client: 0, server: 0 },
    answered: 0,
    messages: { client: 0, server: 0 },
    stderrLines: 0,
    notes: [],
    calls: [],
    events: [],
    lost: 0,
    ended: false,
  };
  const pending = new Map<string, LogRecord>();
  const noteIndex = new Map<string, number>();
  const addNotes = (notes: unknown) => {
    if (!Array.isArray(notes)) return;
    for (const n of notes as Array<{ code?: unknown; text?: unknown }>) {
      const code = String(n.code ?? '?');
      const at = noteIndex.get(code);
      if (at !== undefined) s.notes[at]!.count++;
      else {
        noteIndex.set(code, s.notes.length);
        s.notes.push({ code, text: String(n.text ?? ''), count: 1 });
      }
    }
  };

  for (const r of records) {
    s.byKind[r.kind] = (s.byKind[r.kind] ?? 0) + 1;
    addNotes(r.notes);
    if (r.kind === 'batch' && Array.isArray(r.items)) for (const it of r.items) addNotes(it.notes);
    if (r.kind === 'stderr') {
      s.stderrLines++;
      continue;
    }
    if (r.kind === 'event') {
      s.events.push(eventText(r));
      if (r.event === 'exit') s.exit = { code: (r['code'] as number | null) ?? null, signal: (r['signal'] as string | null) ?? null };
      if (r.event === 'gap' && typeof r['lost'] === 'number') s.lost += r['lost'];
      if (r.event === 'end') s.ended = true;
      continue;
    }
    if (!MESSAGE_KINDS.has(r.kind) || (r.from !== 'client' && r.from !== 'server')) continue;
    s.messages[r.from]++;
    const msg = (r.msg ?? {}) as { id?: unknown; method?: unknown };
    if (r.kind === 'request') {
      s.requests[r.from]++;
      pending.set(idKey(r.from, r.id ?? msg.id), r);
      continue;
    }
    if (r.kind !== 'response' && r.kind !== 'error') continue;
    const requester = r.from === 'client' ? 'server' : 'client';
    const key = idKey(requester, r.id ?? msg.id);
    const req = pending.get(key);
    pending.delete(key);
    if (!req && typeof r.reqSeq !== 'number') continue;
    s.answered++;
    const method = r.method ?? req?.method ?? (req?.msg as { method?: string } | undefined)?.method ?? '?';
    const call: CallLatency =
      typeof r.ms === 'number'
        ? { method, ms: r.ms, source: 'log' }
        : { method, ms: Math.round((r.time - (req?.time ?? r.time)) * 1000) / 1000, source: 'times' };
    const target = r.target ?? req?.target;
    if (target !== undefined) call.target = target;
    if (r.kind === 'error' || r.isError) call.isError = true;
    s.calls.push(call);
  }
  return s;
}
