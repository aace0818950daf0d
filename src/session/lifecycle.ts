/**
 * The MCP lifecycle of one session as seen on the wire: which era (initialize handshake, or the
 * stateless 2026-07-28 revision with `server/discover` and per-request `_meta`), the offered and
 * negotiated versions, who the two sides are and what they can do. Feeds the `lifecycle` event record
 * and tells the rules which protocol version is in force.
 */
import { isObject, type JsonObject } from '../protocol/jsonrpc.js';
import { eraOf, type Era, META } from '../protocol/mcp.js';

/** Where the handshake stands (handshake era). */
export type Phase = 'none' | 'initializing' | 'answered' | 'ready';

/** The fields of a `lifecycle` event record. */
export interface LifecycleFields {
  era: Era;
  protocolVersion?: string;
  offeredVersion?: string;
  supportedVersions?: string[];
  clientInfo?: unknown;
  serverInfo?: unknown;
  clientCapabilities?: unknown;
  serverCapabilities?: unknown;
}

export class Lifecycle {
  era: Era | undefined;
  phase: Phase = 'none';
  /** Handshake: the version the client put in initialize. Stateless: the version of the last request. */
  offeredVersion: string | undefined;
  /** Handshake: the version the server answered. Stateless: the version of the last request. */
  protocolVersion: string | undefined;
  /** Stateless: versions the server said it supports (server/discover, or a -32022 error). */
  supportedVersions: string[] | undefined;
  clientInfo: unknown;
  serverInfo: unknown;
  clientCapabilities: unknown;
  serverCapabilities: unknown;
  /** Stateless: the version last reported in a lifecycle event. */
  private reported: string | undefined;
  private discovered = false;

  /** The protocol version the rules apply (undefined until known). */
  get version(): string | undefined {
    return this.protocolVersion;
  }

  /** The client sent initialize. */
  onInitialize(params: unknown): void {
    this.era = 'handshake';
    this.phase = 'initializing';
    this.protocolVersion = undefined;
    if (!isObject(params)) return;
    const v = params['protocolVersion'];
    this.offeredVersion = typeof v === 'string' ? v : undefined;
    this.clientInfo = params['clientInfo'];
    this.clientCapabilities = params['capabilities'];
  }

  /**
   * The server answered initialize with a result. An answer with another version than the one offered is
   * version negotiation working (the server does not support the client's version and names one it does),
   * not a finding: the lifecycle event shows both.
   */
  onInitializeResult(result: JsonObject): void {
    this.phase = 'answered';
    const v = result['protocolVersion'];
    this.protocolVersion = typeof v === 'string' ? v : undefined;
    this.serverInfo = result['serverInfo'];
    this.serverCapabilities = result['capabilities'];
  }

  /** The client sent notifications/initialized. */
  onInitialized(): void {
    if (this.phase !== 'none') this.phase = 'ready';
  }

  /**
   * A client request carrying `_meta` version info (stateless era). Returns true when a lifecycle event is
   * due: the first such request, or the version changed. server/discover waits for its answer.
   */
  onMetaRequest(version: string, meta: JsonObject, method: string): boolean {
    this.offeredVersion = version;
    this.protocolVersion = version;
    const info = meta[META.clientInfo];
    if (info !== undefined) this.clientInfo = info;
    const caps = meta[META.clientCapabilities];
    if (caps !== undefined) this.clientCapabilities = caps;
    if (method === 'server/discover') return false;
    if (this.era === undefined && eraOf(version) === 'stateless') this.era = 'stateless';
    if (this.era !== 'stateless' || this.reported === version) return false;
    this.reported = version;
    return true;
  }

  /** The server answered server/discover with a result. Returns true when a lifecycle event is due. */
  onDiscoverResult(result: JsonObject): boolean {
    if (this.era === 'handshake') return false;
    this.era = 'stateless';
    const sv = result['supportedVersions'];
    if (Array.isArray(sv)) this.supportedVersions = sv.filter((x): x is string => typeof x === 'string');
    this.serverCapabilities = result['capabilities'];
    const meta = result['_meta'];
    if (isObject(meta) && meta[META.serverInfo] !== undefined) this.serverInfo = meta[META.serverInfo];
    if (this.discovered) return false;
    this.discovered = true;
    if (this.protocolVersion !== undefined) this.reported = this.protocolVersion;
    return true;
  }

  /** A -32022 error lists the versions the server supports. */
  onUnsupportedVersion(data: unknown): void {
    if (!isObject(data)) return;
    const sv = data['supported'];
    if (Array.isArray(sv)) this.supportedVersions = sv.filter((x): x is string => typeof x === 'string');
  }

  /** The `lifecycle` event fields (references into parsed messages, never copies). */
  fields(): LifecycleFields {
    const f: LifecycleFields = { era: this.era ?? 'handshake' };
    if (this.protocolVersion !== undefined) f.protocolVersion = this.protocolVersion;
    if (this.offeredVersion !== undefined) f.offeredVersion = this.offeredVersion;
    if (this.supportedVersions !== undefined) f.supportedVersions = this.supportedVersions;
    if (this.clientInfo !== undefined) f.clientInfo = this.clientInfo;
    if (this.serverInfo !== undefined) f.serverInfo = this.serverInfo;
    if (this.clientCapabilities !== undefined) f.clientCapabilities = this.clientCapabilities;
    if (this.serverCapabilities !== undefined) f.serverCapabilities = this.serverCapabilities;
    return f;
  }
}
