/**
 * What a view remembers about each session while records stream by, so a session's end separator can
 * name its server and exit status although those arrived in earlier records. Bounded: a session is
 * forgotten after its `end` record, and at most `maxSessions` are kept.
 */
import type { LogRecord } from '../log/record.js';

export interface SessionInfo {
  name?: string;
  pid?: number;
  serverPid?: number;
  startTime?: number;
  exitCode?: number | null;
  exitSignal?: string | null;
  protocolVersion?: string;
}

/** Collects SessionInfo from start/spawn/exit/lifecycle events. */
export class SessionContext {
  private readonly sessions = new Map<string, SessionInfo>();

  constructor(private readonly maxSessions = 256) {}

  /** Updates what is known from one record and returns the info of its session. */
  observe(r: LogRecord): SessionInfo {
    const key = typeof r.session === 'string' ? r.session : '';
    let info = this.sessions.get(key);
    if (!info) {
      info = {};
      this.sessions.set(key, info);
      if (this.sessions.size > this.maxSessions) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
    }
    if (r.kind === 'event') {
      switch (r.event) {
        case 'start':
          if (typeof r.name === 'string') info.name = r.name;
          if (typeof r.pid === 'number') info.pid = r.pid;
          if (typeof r.time === 'number') info.startTime = r.time;
          break;
        case 'spawn':
          if (typeof r.serverPid === 'number') info.serverPid = r.serverPid;
          break;
        case 'exit':
          info.exitCode = typeof r.code === 'number' ? r.code : null;
          info.exitSignal = typeof r.signal === 'string' ? r.signal : null;
          break;
        case 'lifecycle':
          if (typeof r.protocolVersion === 'string') info.protocolVersion = r.protocolVersion;
          break;
        default:
          break;
      }
    }
    return info;
  }

  /** Drops a session once its last record has been shown. */
  forget(session: string): void {
    this.sessions.delete(session);
  }
}
