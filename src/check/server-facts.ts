/**
 * What a session says about its server, gathered record by record for check and baseline: how it was
 * started, the negotiated lifecycle, the latest tool/resource/template/prompt listings (a listing without
 * a cursor starts over, one with a cursor continues it) and how the server ended. Streaming: it keeps the
 * listed definitions, never the records.
 */
import type { LogRecord } from '../log/record.js';
import type { ListedItem, Located, RequestFact, SessionFacts } from './facts.js';

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

const LISTINGS: Record<string, { field: string; key: string; slot: 'tools' | 'resources' | 'resourceTemplates' | 'prompts' }> = {
  'tools/list': { field: 'tools', key: 'name', slot: 'tools' },
  'resources/list': { field: 'resources', key: 'uri', slot: 'resources' },
  'resources/templates/list': { field: 'resourceTemplates', key: 'uriTemplate', slot: 'resourceTemplates' },
  'prompts/list': { field: 'prompts', key: 'name', slot: 'prompts' },
};

/** Whether a method lists tools, resources, resource templates or prompts. */
export const isListing = (method: string): boolean => Object.hasOwn(LISTINGS, method);

/** Events after which the server's exit is expected: the client (or a signal) ended the session. */
const SHUTDOWN_EVENTS = new Set(['stdin-closed', 'signal', 'kill', 'host-gone']);

/** Fills a session's start, lifecycle, listings and exit into `facts` as their records come. */
export class ServerFacts {
  private readonly listings = new Map<string, Map<string, ListedItem>>();
  private shutdownStarted = false;
  private signalled = false;
  private readonly sentSignals: string[] = [];
  private lifecycleSeen = false;

  constructor(private readonly facts: SessionFacts) {}

  /** Remembers listings, and the lifecycle from an initialize answer when no lifecycle event says more. */
  result(q: RequestFact, result: unknown, at: Located, truncated: boolean): void {
    if (!isObj(result)) return;
    if (q.method === 'initialize' && !this.lifecycleSeen) {
      if (typeof result['protocolVersion'] === 'string') this.facts.protocolVersion = result['protocolVersion'];
      if (isObj(result['serverInfo'])) this.facts.serverInfo = result['serverInfo'];
      if (isObj(result['capabilities'])) this.facts.capabilities = result['capabilities'];
      return;
    }
    const spec = LISTINGS[q.method];
    if (!spec || q.from !== 'client') return;
    const items = result[spec.field];
    if (!Array.isArray(items)) return;
    let map = this.listings.get(q.method);
    // a listing without a cursor starts over (a refresh after list_changed); a cursor continues it
    if (!map || !q.cursor) {
      map = new Map();
      this.listings.set(q.method, map);
    }
    for (const def of items) {
      if (!isObj(def)) continue;
      const key = def[spec.key];
      if (typeof key !== 'string') continue;
      map.set(key, { key, def, at, truncated });
    }
  }

  /** One of mcp-tap's events: the start, the lifecycle, signals, the exit, the end. */
  event(r: LogRecord, at: Located): void {
    const ev = r.event;
    if (ev === undefined) return;
    if (SHUTDOWN_EVENTS.has(ev)) this.shutdownStarted = true;
    if (ev === 'signal' || ev === 'kill') {
      this.signalled = true;
      if (typeof r['signal'] === 'string') this.sentSignals.push(r['signal']);
    }
    switch (ev) {
      case 'start':
        this.facts.start = {
          ...(typeof r['name'] === 'string' ? { name: r['name'] } : {}),
          ...(typeof r['command'] === 'string' ? { command: r['command'] } : {}),
          ...(Array.isArray(r['args']) ? { args: (r['args'] as unknown[]).map(String) } : {}),
          ...(typeof r['pid'] === 'number' ? { pid: r['pid'] } : {}),
        };
        break;
      case 'lifecycle':
        this.lifecycleSeen = true;
        if (typeof r['protocolVersion'] === 'string') this.facts.protocolVersion = r['protocolVersion'];
        if (r['era'] === 'handshake' || r['era'] === 'stateless') this.facts.era = r['era'];
        if (isObj(r['serverInfo'])) this.facts.serverInfo = r['serverInfo'];
        if (isObj(r['serverCapabilities'])) this.facts.capabilities = r['serverCapabilities'];
        break;
      case 'exit':
        this.facts.exit = {
          ...at,
          code: typeof r['code'] === 'number' ? r['code'] : null,
          signal: typeof r['signal'] === 'string' ? r['signal'] : null,
          afterShutdown: this.shutdownStarted,
          signalled: this.signalled,
          sentSignals: [...this.sentSignals],
        };
        break;
      case 'spawn-error':
        this.facts.spawnError = { ...at, error: str(r['error']) ?? 'the server could not be started' };
        break;
      case 'end':
        this.facts.ended = true;
        break;
      default:
        break;
    }
  }

  /** The latest listing of each kind into `facts` (null stays for a kind never listed). */
  finish(): void {
    for (const [method, map] of this.listings) {
      const slot = LISTINGS[method]!.slot;
      this.facts[slot] = [...map.values()];
    }
  }
}
