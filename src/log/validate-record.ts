/**
 * Checks that a parsed log line is a record of the jsonrpc.log contract (docs/log-format.md). Used by the
 * doc test on the documented examples and usable by readers that want to skip foreign lines. Tolerant
 * the way the contract asks readers to be: unknown fields are fine; a record with a higher `v` is only
 * checked for its envelope.
 */
import { LOG_FORMAT_VERSION, type EventName, type Kind } from './record.js';

const EVENT_SET: Record<EventName, true> = {
  start: true,
  spawn: true,
  'spawn-error': true,
  lifecycle: true,
  'stdin-closed': true,
  'stdout-closed': true,
  'host-gone': true,
  signal: true,
  kill: true,
  exit: true,
  gap: true,
  'log-error': true,
  http: true,
  'upstream-error': true,
  refused: true,
  exchange: true,
  auth: true,
  'session-id': true,
  'sink-gap': true,
  end: true,
};
/** Every event name of this format version (readers must still accept unknown ones). */
export const EVENT_NAMES = Object.keys(EVENT_SET) as EventName[];

const KIND_SET: Record<Kind, true> = {
  request: true,
  response: true,
  error: true,
  notification: true,
  batch: true,
  invalid: true,
  stderr: true,
  event: true,
};
/** Every record kind of this format version. */
export const KINDS = Object.keys(KIND_SET) as Kind[];

const KIND_NAMES = new Set<string>(KINDS);
const ITEM_KINDS = new Set(['request', 'response', 'error', 'notification', 'invalid']);
const FROM = new Set(['client', 'server', 'proxy']);
const LEVELS = new Set<unknown>([30, 40, 50]);
const CODE = /^[a-z0-9]+(-[a-z0-9]+)*$/;

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): boolean => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
const isPosInt = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 1;
const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;
const isMs = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Problems with `x` as a log record; empty when it is a valid record. */
export function validateRecord(x: unknown): string[] {
  const p: string[] = [];
  if (!isObj(x)) return ['a record must be a JSON object'];
  if (!isPosInt(x['v'])) p.push('v must be a positive integer');
  if (typeof x['time'] !== 'number' || !Number.isFinite(x['time'])) p.push('time must be a number (epoch ms)');
  if (typeof x['session'] !== 'string' || x['session'] === '') p.push('session must be a non-empty string');
  if (!isPosInt(x['seq'])) p.push('seq must be a positive integer');
  if (typeof x['v'] === 'number' && x['v'] > LOG_FORMAT_VERSION) return p; // a newer format: envelope only
  const from = x['from'];
  const kind = x['kind'];
  if (typeof from !== 'string' || !FROM.has(from)) p.push('from must be client, server or proxy');
  if (typeof kind !== 'string' || !KIND_NAMES.has(kind)) {
    p.push('kind must be one of ' + KINDS.join(', '));
    return p;
  }
  checkCommon(x, p, '');
  if ('raw' in x && typeof x['raw'] !== 'string') p.push('raw must be a string');
  for (const f of ['truncated', 'partial'] as const) if (f in x && x[f] !== true) p.push(`${f} must be true when present`);
  if ('exchangeMs' in x && !isMs(x['exchangeMs'])) p.push('exchangeMs must be a non-negative number');
  if ('level' in x && !LEVELS.has(x['level'])) p.push('level must be 30, 40 or 50 when present');
  if ('reqSeq' in x && isPosInt(x['reqSeq']) && isPosInt(x['seq']) && (x['reqSeq'] as number) > (x['seq'] as number)) {
    p.push('reqSeq must refer to an earlier (or the same) record');
  }
  if ('http' in x) checkHttp(x['http'], p);
  const line = kind !== 'event';
  if (line && !isCount(x['bytes'])) p.push('bytes must be a non-negative integer on line records');
  if (kind !== 'event' && kind !== 'stderr' && from === 'proxy') p.push(`a ${kind} record comes from client or server`);
  switch (kind) {
    case 'request':
      if (typeof x['method'] !== 'string') p.push('a request has a method');
      if (!('id' in x)) p.push('a request has an id');
      if (!('msg' in x)) p.push('a request has msg');
      break;
    case 'response':
      if (!('id' in x)) p.push('a response has an id');
      if (!('msg' in x)) p.push('a response has msg');
      break;
    case 'error':
      if (!('msg' in x)) p.push('an error has msg');
      break;
    case 'notification':
      if (typeof x['method'] !== 'string') p.push('a notification has a method');
      if ('id' in x) p.push('a notification has no id');
      if (!('msg' in x)) p.push('a notification has msg');
      break;
    case 'batch':
      if (!Array.isArray(x['items']) || x['items'].length === 0) p.push('a batch has a non-empty items array');
      if (!Array.isArray(x['msg'])) p.push('a batch has msg (the array)');
      break;
    case 'invalid':
      if (!('msg' in x) && typeof x['raw'] !== 'string') p.push('an invalid record has msg or raw');
      break;
    case 'stderr':
      if (from !== 'server') p.push('stderr records come from the server');
      if (typeof x['raw'] !== 'string') p.push('a stderr record has raw');
      break;
    case 'event':
      if (from !== 'proxy') p.push('event records come from proxy');
      if (typeof x['event'] !== 'string') p.push('an event record has an event name');
      checkEvent(x, p);
      break;
  }
  if ('items' in x) {
    if (!Array.isArray(x['items'])) p.push('items must be an array');
    else
      x['items'].forEach((it, i) => {
        if (!isObj(it)) {
          p.push(`items[${i}] must be an object`);
          return;
        }
        if (typeof it['kind'] !== 'string' || !ITEM_KINDS.has(it['kind'])) p.push(`items[${i}].kind is not a message kind`);
        checkCommon(it, p, `items[${i}].`);
      });
  }
  return p;
}

/** Fields records and batch items share. */
function checkCommon(x: Obj, p: string[], at: string): void {
  if ('id' in x && !isId(x['id'])) p.push(`${at}id must be a string, a number or null`);
  if ('method' in x && typeof x['method'] !== 'string') p.push(`${at}method must be a string`);
  if ('target' in x && typeof x['target'] !== 'string') p.push(`${at}target must be a string`);
  if ('reqSeq' in x && !isPosInt(x['reqSeq'])) p.push(`${at}reqSeq must be a positive integer`);
  if ('retryOf' in x && !isPosInt(x['retryOf'])) p.push(`${at}retryOf must be a positive integer`);
  if ('ms' in x && !isMs(x['ms'])) p.push(`${at}ms must be a non-negative number`);
  if ('taskMs' in x && !isMs(x['taskMs'])) p.push(`${at}taskMs must be a non-negative number`);
  if ('taskOf' in x && !isPosInt(x['taskOf'])) p.push(`${at}taskOf must be a positive integer`);
  for (const f of ['taskId', 'taskStatus'] as const) if (f in x && typeof x[f] !== 'string') p.push(`${at}${f} must be a string`);
  if ('taskMs' in x && !('taskStatus' in x)) p.push(`${at}taskMs comes with the taskStatus that ended the task`);
  for (const f of ['isError', 'cancelled', 'inputRequired'] as const) {
    if (f in x && x[f] !== true) p.push(`${at}${f} must be true when present`);
  }
  if ('notes' in x) {
    const n = x['notes'];
    if (!Array.isArray(n)) p.push(`${at}notes must be an array`);
    else
      n.forEach((note, i) => {
        if (!isObj(note) || typeof note['code'] !== 'string' || !CODE.test(note['code']) || typeof note['text'] !== 'string') {
          p.push(`${at}notes[${i}] must be {code: kebab-case string, text: string}`);
        }
      });
  }
}

/** The `http` member (HTTP mode): method and path strings; status a number; the rest strings. */
function checkHttp(h: unknown, p: string[]): void {
  if (!isObj(h)) {
    p.push('http must be an object');
    return;
  }
  if (typeof h['method'] !== 'string') p.push('http.method must be a string');
  if (typeof h['path'] !== 'string') p.push('http.path must be a string');
  if ('status' in h && !isPosInt(h['status'])) p.push('http.status must be a positive integer');
  for (const f of ['sessionId', 'eventId', 'traceparent'] as const) if (f in h && typeof h[f] !== 'string') p.push(`http.${f} must be a string`);
  if ('stream' in h && h['stream'] !== 'post' && h['stream'] !== 'get') p.push('http.stream must be post or get');
  if ('x' in h && !isPosInt(h['x'])) p.push('http.x must be a positive integer');
}

/** `[[name, value], …]` */
function isHeaderList(v: unknown): boolean {
  return Array.isArray(v) && v.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string');
}

/** The `exchange` event: what a HAR entry is built from. */
function checkExchange(x: Obj, p: string[]): void {
  if (typeof x['started'] !== 'number') p.push('an exchange event has started (epoch ms)');
  const t = x['timing'];
  if (!isObj(t) || typeof t['end'] !== 'number' || Object.values(t).some((v) => typeof v !== 'number' || v < 0)) p.push('an exchange event has timing {request?, head?, end}: non-negative ms');
  for (const side of ['request', 'response'] as const) {
    if (!(side in x)) continue;
    const s = x[side];
    if (!isObj(s) || !isHeaderList(s['headers']) || typeof s['bytes'] !== 'number') p.push(`exchange ${side} must be {headers: [[name, value]…], bytes}`);
  }
  if (!isObj(x['request'])) p.push('an exchange event has request');
  if ('notDecoded' in x && typeof x['notDecoded'] !== 'string') p.push('exchange notDecoded must be a string');
}

function checkEvent(x: Obj, p: string[]): void {
  switch (x['event']) {
    case 'http':
    case 'upstream-error':
    case 'refused':
    case 'session-id':
      if (!('http' in x)) p.push(`a ${String(x['event'])} event has http`);
      break;
    case 'exchange':
      if (!('http' in x)) p.push('an exchange event has http');
      checkExchange(x, p);
      break;
    case 'auth':
      if (!Array.isArray(x['chain']) || typeof x['ok'] !== 'boolean') p.push('an auth event has chain (array) and ok (boolean)');
      break;
    case 'end': {
      const pending = x['pending'];
      if (!Array.isArray(pending)) {
        p.push('an end event has a pending array');
        break;
      }
      pending.forEach((r, i) => {
        if (!isObj(r) || (r['from'] !== 'client' && r['from'] !== 'server') || !isId(r['id']) || typeof r['method'] !== 'string' || !isPosInt(r['seq'])) {
          p.push(`pending[${i}] must be {from, id, method, seq}`);
        }
      });
      const tasks = x['openTasks'];
      if (tasks !== undefined && !Array.isArray(tasks)) p.push('openTasks must be an array');
      if (Array.isArray(tasks)) {
        tasks.forEach((r, i) => {
          if (!isObj(r) || (r['from'] !== 'client' && r['from'] !== 'server') || !isId(r['id']) || typeof r['method'] !== 'string' || !isPosInt(r['seq']) || typeof r['taskId'] !== 'string' || typeof r['status'] !== 'string') {
            p.push(`openTasks[${i}] must be {from, id, method, seq, taskId, status}`);
          }
        });
      }
      break;
    }
    case 'lifecycle':
      if (x['era'] !== 'handshake' && x['era'] !== 'stateless') p.push('a lifecycle event has era handshake or stateless');
      break;
    case 'exit':
      if (!('code' in x) || !('signal' in x)) p.push('an exit event has code and signal');
      break;
  }
}

/** True when `x` is a valid record (see validateRecord for the reasons when it is not). */
export function isLogRecord(x: unknown): boolean {
  return validateRecord(x).length === 0;
}
