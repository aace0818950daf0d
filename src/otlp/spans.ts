/**
 * Log records → OpenTelemetry spans, after the OTel MCP semantic conventions (docs/observability.md).
 * Pure and shared: `export --format otlp` feeds it a session read back from the log, the live `--otlp`
 * exporter feeds it records as the observer writes them. Ids derive from the session id and `seq`, so
 * both ways produce the same trace for the same session.
 */
import type { BatchItem, JsonRpcId, LogRecord, Note } from '../log/record.js';
import { authChainText, type AuthLink } from '../log/auth-chain.js';
import { ATTR, type Attributes, type MsgSource, type Span, type SpanOptions } from './span-types.js';
import { errorCode, errorMessage, headerTraceparent, hex, json, traceparentOf, ZERO_SPAN, ZERO_TRACE } from './trace-context.js';

export { ATTR, type AttrValue, type Attributes, type MsgSource, type Span, type SpanEvent, type SpanKind, type SpanOptions } from './span-types.js';
export { parseTraceparent, traceparentOf } from './trace-context.js';

interface OpenSpan {
  span: Span;
  method: string;
  /** Answered with a task: the span lasts until the task ends. */
  task?: true;
}

/** Folds one session's records, in order, into spans; each call returns the spans it finished. */
export class SpanBuilder {
  private traceId = ZERO_TRACE;
  private rootId = ZERO_SPAN;
  private session = '';
  private root: Span | null = null;
  private protocolVersion: string | undefined;
  /** `pipe` for stdio mode, `tcp` for HTTP mode (a start record naming an upstream). */
  private transport = 'pipe';
  private lastTime = 0;
  private spanBase = 0n;
  /** Open request spans by `seq` (single requests) or `seq#id` (batch elements); insertion-ordered. */
  private readonly open = new Map<string, OpenSpan>();
  private readonly maxOpen: number;
  /** Keys of `open` in opening order, some answered since (skipped when met). */
  private order: string[] = [];
  private orderHead = 0;

  constructor(private readonly opts: SpanOptions = {}) {
    this.maxOpen = opts.maxOpen ?? 10_000;
  }

  /** The next record of the session; `msg` gives its message when the record does not carry it. */
  push(record: LogRecord, msg?: MsgSource): Span[] {
    const out: Span[] = [];
    if (record.session !== this.session) {
      // a new session in the same log: whatever the last one left open ends where it stopped
      if (this.session !== '') this.closeAll(this.lastTime, out, {});
      this.begin(record);
    }
    this.lastTime = record.time;
    const src = msg ?? { value: () => record.msg, mayContain: () => true };
    switch (record.kind) {
      case 'event':
        this.onEvent(record, out);
        break;
      case 'request':
        this.openRequest(record, record.seq, record.id, record.method, record.target, src, record.notes, out);
        break;
      case 'response':
      case 'error':
        this.answer(record, record.reqSeq, record.id, src, out);
        break;
      case 'notification':
        this.onNotification(record, src);
        break;
      case 'batch':
        for (const item of record.items ?? []) this.batchItem(record, item, out);
        break;
      default:
        break;
    }
    if (typeof record.taskOf === 'number') this.onTaskRecord(record, record.taskOf, out);
    return out;
  }

  /** Ends what is still open (a log without an end record): unanswered requests, then the root. */
  finish(time: number): Span[] {
    const out: Span[] = [];
    if (this.session !== '') this.closeAll(Math.max(time, this.lastTime), out, {});
    this.session = '';
    return out;
  }

  private begin(record: LogRecord): void {
    this.session = record.session;
    this.traceId = hex(`mcp-tap trace ${record.session}`, 16);
    this.spanBase = BigInt(`0x${hex(`mcp-tap span ${record.session}`, 8)}`);
    this.rootId = this.spanIdFor(0);
    this.protocolVersion = undefined;
    this.transport = typeof record['upstream'] === 'string' ? 'tcp' : 'pipe';
    this.open.clear();
    this.order = [];
    this.orderHead = 0;
    this.root = {
      traceId: this.traceId,
      spanId: this.rootId,
      name: 'mcp-tap session',
      kind: 'internal',
      start: record.time,
      end: record.time,
      attributes: { [ATTR.mcpSessionId]: record.session, [ATTR.networkTransport]: this.transport },
      events: [],
      links: [],
      status: { code: 'unset' },
    };
  }

  /** Per seq: the session's base times an odd constant, mod 2^64 (a bijection, so distinct); cheaper than a hash per span. */
  private spanIdFor(key: number | string): string {
    if (typeof key === 'string') return hex(`mcp-tap span ${this.session} ${key}`, 8);
    const id = BigInt.asUintN(64, this.spanBase + BigInt(key) * 0x9e3779b97f4a7c15n);
    return id.toString(16).padStart(16, '0');
  }

  private onEvent(record: LogRecord, out: Span[]): void {
    const root = this.root!;
    switch (record.event) {
      case 'start': {
        const name = typeof record['name'] === 'string' ? record['name'] : '';
        root.name = name ? `mcp-tap ${name}` : 'mcp-tap session';
        if (name) root.attributes['mcp_tap.server.name'] = name;
        if (typeof record['command'] === 'string') root.attributes[ATTR.processCommand] = record['command'];
        if (Array.isArray(record['args'])) root.attributes[ATTR.processCommandArgs] = (record['args'] as unknown[]).map(String);
        if (typeof record['upstream'] === 'string') root.attributes['mcp_tap.upstream'] = record['upstream'];
        break;
      }
      case 'lifecycle':
        if (typeof record['protocolVersion'] === 'string') {
          this.protocolVersion = record['protocolVersion'];
          root.attributes[ATTR.mcpProtocolVersion] = this.protocolVersion;
        }
        break;
      case 'exit':
        if (typeof record['code'] === 'number') root.attributes[ATTR.processExitCode] = record['code'];
        if (typeof record['signal'] === 'string') root.attributes['mcp_tap.exit.signal'] = record['signal'];
        break;
      case 'end':
        this.closeAll(record.time, out, record);
        this.session = '';
        return;
      case 'exchange':
        // one per HTTP exchange: HAR export tells them; the spans keep to messages
        return;
      default:
        break;
    }
    // every event of the session shows on the root, where a trace viewer lists them
    const attrs: Attributes = {};
    for (const key of ['signal', 'reason', 'error', 'lost', 'serverPid', 'code'] as const) {
      const v = record[key];
      if (typeof v === 'string' || typeof v === 'number') attrs[`mcp_tap.${key}`] = v;
    }
    if (record.event === 'auth' && Array.isArray(record['chain'])) {
      attrs['mcp_tap.auth.chain'] = authChainText(record['chain'] as AuthLink[], typeof record['omitted'] === 'number' ? record['omitted'] : 0);
      attrs['mcp_tap.auth.ok'] = record['ok'] === true;
    }
    root.events.push({ name: String(record.event), time: record.time, attributes: attrs });
  }

  private closeAll(time: number, out: Span[], end: LogRecord | Record<string, never>): void {
    const cancelledSeqs = new Set<number>();
    const cancelled = (end as LogRecord)['cancelledPending'];
    if (Array.isArray(cancelled)) for (const p of cancelled as { seq?: unknown }[]) if (typeof p.seq === 'number') cancelledSeqs.add(p.seq);
    for (const [key, o] of this.open) {
      if (o.task) {
        // a task still running when the session ended: not an error, not answered
        o.span.end = Math.max(time, o.span.start);
        o.span.attributes['mcp_tap.task.running'] = true;
        out.push(o.span);
        continue;
      }
      const seq = Number.parseInt(key, 10);
      const type = cancelledSeqs.has(seq) || o.span.attributes['mcp_tap.cancelled'] === true ? 'cancelled' : 'unanswered';
      this.endSpan(o.span, time, type, out);
    }
    this.open.clear();
    this.order = [];
    this.orderHead = 0;
    const root = this.root;
    if (root) {
      root.end = Math.max(time, root.start);
      const code = (end as LogRecord)['exitCode'];
      if (typeof code === 'number' && !(ATTR.processExitCode in root.attributes)) root.attributes[ATTR.processExitCode] = code;
      if (typeof code === 'number' && code !== 0) {
        root.attributes[ATTR.errorType] = String(code);
        root.status = { code: 'error', message: `the server exited with code ${code}` };
      }
      out.push(root);
      this.root = null;
    }
  }

  /** Drops answered keys from the order list, so it stays within twice the open spans. */
  private compactOrder(): void {
    this.order = this.order.slice(this.orderHead).filter((k) => this.open.has(k));
    this.orderHead = 0;
  }

  private endSpan(span: Span, time: number, errorType: string, out: Span[]): void {
    span.end = Math.max(time, span.start);
    span.attributes[ATTR.errorType] = errorType;
    span.status = { code: 'error', message: errorType === 'cancelled' ? 'cancelled, never answered' : 'never answered' };
    out.push(span);
  }

  private openRequest(
    record: LogRecord,
    key: number | string,
    id: JsonRpcId | undefined,
    method: string | undefined,
    target: string | undefined,
    src: MsgSource,
    notes: Note[] | undefined,
    out: Span[],
  ): void {
    if (method === undefined) return;
    if (this.open.size >= this.maxOpen) {
      // the log evicts the oldest pending request past its bound too (pending-overflow); the order list
      // skips keys answered meanwhile (a Map's own iterator would walk its deleted entries every time)
      let oldestKey = this.order[this.orderHead++];
      while (oldestKey !== undefined && !this.open.has(oldestKey)) oldestKey = this.order[this.orderHead++];
      if (oldestKey !== undefined) {
        const oldest = this.open.get(oldestKey)!;
        this.open.delete(oldestKey);
        this.endSpan(oldest.span, record.time, 'unanswered', out);
      }
      if (this.orderHead > 4096 && this.orderHead * 2 > this.order.length) {
        this.order.splice(0, this.orderHead);
        this.orderHead = 0;
      }
    }
    const attributes: Attributes = { [ATTR.mcpMethodName]: method, [ATTR.mcpSessionId]: record.session, [ATTR.networkTransport]: this.transport };
    if (id !== undefined && id !== null) attributes[ATTR.jsonrpcRequestId] = String(id);
    if (this.protocolVersion !== undefined) attributes[ATTR.mcpProtocolVersion] = this.protocolVersion;
    if (target !== undefined) {
      if (method === 'tools/call') attributes[ATTR.genAiToolName] = target;
      else if (method === 'prompts/get') attributes[ATTR.genAiPromptName] = target;
      else if (method === 'resources/read') attributes[ATTR.mcpResourceUri] = target;
    }
    if (method === 'tools/call') attributes[ATTR.genAiOperationName] = 'execute_tool';
    const span: Span = {
      traceId: this.traceId,
      spanId: this.spanIdFor(key),
      parentSpanId: this.rootId,
      name: target !== undefined ? `${method} ${target}` : method,
      kind: record.from === 'server' ? 'server' : 'client',
      start: record.time,
      end: record.time,
      attributes,
      events: [],
      links: [],
      status: { code: 'unset' },
    };
    // a single request's message is this record's; a batch element's is one entry of the array
    const needsMsg = typeof key === 'number' && (src.mayContain('traceparent') || (this.opts.content === true && method === 'tools/call'));
    let parent: { traceId: string; spanId: string } | null = null;
    if (needsMsg) {
      const msg = src.value();
      parent = traceparentOf(msg);
      if (this.opts.content === true && method === 'tools/call') {
        const args = ((msg as { params?: { arguments?: unknown } } | null)?.params ?? {}).arguments;
        if (args !== undefined) attributes[ATTR.genAiToolCallArguments] = json(args);
      }
    }
    // HTTP mode: the POST's traceparent header when the message names none in _meta
    if (parent === null && typeof key === 'number' && this.transport === 'tcp') parent = headerTraceparent(record);
    if (parent) {
      // the host's trace: this span joins it, and links back to the session it belongs to
      span.traceId = parent.traceId;
      span.parentSpanId = parent.spanId;
      span.links.push({ traceId: this.traceId, spanId: this.rootId });
    }
    if (record.retryOf !== undefined) attributes['mcp_tap.retry_of'] = this.spanIdFor(record.retryOf);
    // a request of a task (tasks/get, tasks/result, an elicitation inside it) nests under the call's span
    const call = typeof record.taskOf === 'number' ? this.open.get(String(record.taskOf)) : undefined;
    if (call?.task && span.parentSpanId === this.rootId) {
      span.parentSpanId = call.span.spanId;
      span.traceId = call.span.traceId;
    }
    this.addNotes(span, record.time, notes);
    const k = typeof key === 'number' ? String(key) : key;
    this.open.set(k, { span, method });
    this.order.push(k);
    if (this.order.length - this.orderHead > this.maxOpen * 2) this.compactOrder();
  }

  private answer(record: LogRecord, reqSeq: number | undefined, id: JsonRpcId | undefined, src: MsgSource | null, out: Span[]): void {
    if (reqSeq === undefined) return;
    const key = this.open.has(String(reqSeq)) ? String(reqSeq) : `${reqSeq}#${json(id)}`;
    const o = this.open.get(key);
    if (!o) return;
    const span = o.span;
    if (typeof record.taskId === 'string' && typeof record.taskOf !== 'number') {
      // a CreateTaskResult: the call goes on as a task (its span ends with the task, onTaskRecord)
      span.attributes['mcp_tap.task.id'] = record.taskId;
      span.events.push({ name: 'mcp_tap.task.created', time: record.time, attributes: typeof record.taskStatus === 'string' ? { 'mcp_tap.task.status': record.taskStatus } : {} });
      o.task = true;
      this.addNotes(span, record.time, record.notes);
      if (record.taskMs === undefined) return;
      this.endTask(o, key, record, out);
      return;
    }
    this.open.delete(key);
    span.end = Math.max(record.time, span.start);
    const isError = record.kind === 'error';
    if (isError) {
      const code = src ? errorCode(src.value()) : undefined;
      const type = code !== undefined ? String(code) : '_OTHER';
      span.attributes[ATTR.rpcResponseStatusCode] = type;
      span.attributes[ATTR.errorType] = type;
      span.status = { code: 'error', message: src ? errorMessage(src.value()) : undefined };
    } else if (record.isError === true) {
      span.attributes[ATTR.errorType] = 'tool_error';
      span.status = { code: 'error', message: 'the tool reported an error (isError)' };
    }
    if (record.cancelled === true) span.attributes['mcp_tap.cancelled'] = true;
    if (record.inputRequired === true) span.attributes['mcp_tap.input_required'] = true;
    if (this.opts.content === true && o.method === 'tools/call' && src && !isError) {
      const result = (src.value() as { result?: unknown } | null)?.result;
      if (result !== undefined) span.attributes[ATTR.genAiToolCallResult] = json(result);
    }
    this.addNotes(span, record.time, record.notes);
    if (span.status.message === undefined) delete span.status.message;
    out.push(span);
  }

  /** A record of a task (`taskOf`): its status as an event of the call's span, which ends with the task. */
  private onTaskRecord(record: LogRecord, callSeq: number, out: Span[]): void {
    const key = String(callSeq);
    const o = this.open.get(key);
    if (!o?.task) return;
    if (typeof record.taskStatus === 'string') o.span.events.push({ name: 'mcp_tap.task.status', time: record.time, attributes: { 'mcp_tap.task.status': record.taskStatus } });
    if (record.taskMs !== undefined) this.endTask(o, key, record, out);
  }

  /** The record that ended a task ends its call's span: failed and cancelled are errors of the call. */
  private endTask(o: OpenSpan, key: string, record: LogRecord, out: Span[]): void {
    this.open.delete(key);
    const span = o.span;
    span.end = Math.max(record.time, span.start);
    const status = record.taskStatus;
    if (typeof status === 'string') span.attributes['mcp_tap.task.status'] = status;
    if (status === 'failed') {
      span.attributes[ATTR.errorType] = 'task_failed';
      span.status = { code: 'error', message: 'the task failed' };
    } else if (status === 'cancelled') {
      span.attributes[ATTR.errorType] = 'cancelled';
      span.status = { code: 'error', message: 'the task was cancelled' };
    } else if (record.isError === true) {
      span.attributes[ATTR.errorType] = 'tool_error';
      span.status = { code: 'error', message: 'the tool reported an error (isError)' };
    }
    out.push(span);
  }

  private onNotification(record: LogRecord, src: MsgSource): void {
    if (record.reqSeq === undefined || record.method === undefined) return;
    const o = this.open.get(String(record.reqSeq));
    if (!o) return;
    const attrs: Attributes = {};
    if (record.method === 'notifications/progress') {
      const p = ((src.value() as { params?: Record<string, unknown> } | null)?.params ?? {}) as Record<string, unknown>;
      for (const k of ['progress', 'total', 'message'] as const) {
        const v = p[k];
        if (typeof v === 'number' || typeof v === 'string') attrs[`mcp_tap.progress.${k}`] = v;
      }
    }
    if (record.method === 'notifications/cancelled') o.span.attributes['mcp_tap.cancelled'] = true;
    o.span.events.push({ name: record.method, time: record.time, attributes: attrs });
    this.addNotes(o.span, record.time, record.notes);
  }

  private batchItem(record: LogRecord, item: BatchItem, out: Span[]): void {
    if (item.kind === 'request') {
      this.openRequest(record, `${record.seq}#${json(item.id)}`, item.id, item.method, item.target, NO_MSG, item.notes, out);
    } else if (item.kind === 'response' || item.kind === 'error') {
      const fake = { ...record, kind: item.kind, isError: item.isError, cancelled: item.cancelled, notes: item.notes } as LogRecord;
      this.answer(fake, item.reqSeq, item.id, null, out);
    }
  }

  private addNotes(span: Span, time: number, notes: Note[] | undefined): void {
    for (const n of notes ?? []) span.events.push({ name: 'mcp_tap.note', time, attributes: { 'mcp_tap.note.code': n.code, 'mcp_tap.note.text': n.text } });
  }
}

const NO_MSG: MsgSource = { value: () => undefined, mayContain: () => false };
