/**
 * Which MCP session an HTTP request belongs to: by its Mcp-Session-Id; before the server has given one,
 * by the connection it came on (so two hosts that both start at id 1 never share a pairing table); on
 * the legacy transport, by the endpoint URL its SSE stream announced. Bounded: past `max` live sessions
 * the least recently used one is ended.
 */
import type { Socket } from 'node:net';
import type { HttpTap } from './http-tap.js';

/** A new session within this long after one expired is the same host reconnecting. */
const RECONNECT_MS = 10 * 60 * 1000;

/** Request → session; one instance per mcp-tap run. */
export class SessionRouter {
  /** Live sessions, least recently used first. */
  private readonly live = new Map<HttpTap, { sid?: string; endpoint?: string; socket?: Socket }>();
  private readonly bySid = new Map<string, HttpTap>();
  private readonly byEndpointKey = new Map<string, HttpTap>();
  private readonly bySocket = new WeakMap<Socket, HttpTap>();
  /** The last session the server said it no longer knows (404): a host that starts anew soon after reconnects. */
  private expired: { sid: string; session: string; time: number } | null = null;

  constructor(
    private readonly make: () => HttpTap,
    private readonly onEnd: (tap: HttpTap, reason: string) => void,
    private readonly max = 1000,
  ) {}

  /** The session of a request that carries an Mcp-Session-Id (one mcp-tap has not seen yet gets a new record stream). */
  forSessionId(sid: string): HttpTap {
    const tap = this.bySid.get(sid);
    if (tap !== undefined && !tap.ended) return this.touch(tap);
    const fresh = this.add();
    this.bind(sid, fresh);
    return fresh;
  }

  /** The session of a request without a session id: the connection's, until the server names one. */
  forConnection(socket: Socket): HttpTap {
    const tap = this.bySocket.get(socket);
    if (tap !== undefined && !tap.ended) return this.touch(tap);
    const fresh = this.add();
    this.bySocket.set(socket, fresh);
    this.live.get(fresh)!.socket = socket;
    socket.once('close', () => {
      // a session that never got an id lives as long as its connection
      const info = this.live.get(fresh);
      if (info !== undefined && info.sid === undefined && info.endpoint === undefined) this.end(fresh, 'connection-closed');
    });
    return fresh;
  }

  /** The server named the session: later requests carry this id, from any connection. */
  bind(sid: string, tap: HttpTap): void {
    const info = this.live.get(tap);
    if (info === undefined) return;
    if (info.sid !== undefined && info.sid !== sid) this.bySid.delete(info.sid);
    info.sid = sid;
    this.bySid.set(sid, tap);
    if (info.socket !== undefined && this.bySocket.get(info.socket) === tap) this.bySocket.delete(info.socket);
  }

  /** The session id the server gave `tap`, if any. */
  sessionIdOf(tap: HttpTap): string | undefined {
    return this.live.get(tap)?.sid;
  }

  /** The session that expired (404) within the last `RECONNECT_MS` before `now`, once: the host is reconnecting. */
  takeExpired(now: number): { sid: string; session: string } | null {
    const e = this.expired;
    this.expired = null;
    return e !== null && now - e.time <= RECONNECT_MS ? { sid: e.sid, session: e.session } : null;
  }

  /** Whether `tap` is still known only by its connection (no session id, no legacy endpoint). */
  isConnectionSession(tap: HttpTap): boolean {
    const info = this.live.get(tap);
    return info !== undefined && info.sid === undefined && info.endpoint === undefined;
  }

  /** Legacy transport: POSTs to this endpoint (path and query) belong to the stream that announced it. */
  bindEndpoint(pathAndQuery: string, tap: HttpTap): void {
    const info = this.live.get(tap);
    if (info === undefined) return;
    info.endpoint = pathAndQuery;
    this.byEndpointKey.set(pathAndQuery, tap);
    if (info.socket !== undefined && this.bySocket.get(info.socket) === tap) this.bySocket.delete(info.socket);
  }

  forEndpoint(pathAndQuery: string): HttpTap | undefined {
    const tap = this.byEndpointKey.get(pathAndQuery);
    return tap !== undefined && !tap.ended ? this.touch(tap) : undefined;
  }

  /** Ends a session (DELETE, expiry, stream closed, shutdown). */
  end(tap: HttpTap, reason: string): void {
    const info = this.live.get(tap);
    if (info === undefined) return;
    this.live.delete(tap);
    if (info.sid !== undefined && this.bySid.get(info.sid) === tap) this.bySid.delete(info.sid);
    if (info.endpoint !== undefined && this.byEndpointKey.get(info.endpoint) === tap) this.byEndpointKey.delete(info.endpoint);
    if (info.socket !== undefined && this.bySocket.get(info.socket) === tap) this.bySocket.delete(info.socket);
    if (reason === 'session-not-found' && info.sid !== undefined) this.expired = { sid: info.sid, session: tap.id, time: tap.clock() };
    this.onEnd(tap, reason);
  }

  /** Ends every live session. */
  endAll(reason: string): void {
    for (const tap of [...this.live.keys()]) this.end(tap, reason);
  }

  get size(): number {
    return this.live.size;
  }

  private add(): HttpTap {
    if (this.live.size >= this.max) {
      const oldest = this.live.keys().next().value;
      if (oldest !== undefined) this.end(oldest, 'evicted');
    }
    const tap = this.make();
    this.live.set(tap, {});
    return tap;
  }

  private touch(tap: HttpTap): HttpTap {
    const info = this.live.get(tap);
    if (info !== undefined) {
      this.live.delete(tap);
      this.live.set(tap, info);
    }
    return tap;
  }
}
