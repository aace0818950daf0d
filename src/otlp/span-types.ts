/** The span shapes of the OTLP export and the attribute names they use (spans.ts builds them). */

/** Attribute names used here, as in @opentelemetry/semantic-conventions (a test holds them to it). */
export const ATTR = {
  mcpMethodName: 'mcp.method.name',
  mcpProtocolVersion: 'mcp.protocol.version',
  mcpResourceUri: 'mcp.resource.uri',
  mcpSessionId: 'mcp.session.id',
  jsonrpcRequestId: 'jsonrpc.request.id',
  genAiToolName: 'gen_ai.tool.name',
  genAiPromptName: 'gen_ai.prompt.name',
  genAiOperationName: 'gen_ai.operation.name',
  genAiToolCallArguments: 'gen_ai.tool.call.arguments',
  genAiToolCallResult: 'gen_ai.tool.call.result',
  networkTransport: 'network.transport',
  rpcResponseStatusCode: 'rpc.response.status_code',
  errorType: 'error.type',
  processCommand: 'process.command',
  processCommandArgs: 'process.command_args',
  processExitCode: 'process.exit.code',
} as const;

export type AttrValue = string | number | boolean | string[];
export type Attributes = Record<string, AttrValue>;
export type SpanKind = 'internal' | 'server' | 'client';

export interface SpanEvent {
  name: string;
  time: number;
  attributes: Attributes;
}

/** One finished span; times are epoch ms (fractional, µs), ids lower-case hex. */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: SpanKind;
  start: number;
  end: number;
  attributes: Attributes;
  events: SpanEvent[];
  links: { traceId: string; spanId: string }[];
  status: { code: 'unset' | 'error'; message?: string };
}

/** The message of a record, parsed only when a span needs it (the live path has text, the reader objects). */
export interface MsgSource {
  value(): unknown;
  /** False only when the message certainly does not contain `needle` (a cheap check before parsing). */
  mayContain(needle: string): boolean;
}

export interface SpanOptions {
  /** Tool arguments and results as attributes (`--otlp-content`); the caller redacts the records. */
  content?: boolean;
  /** Requests kept open at once; past it the oldest ends as `unanswered` (the log's own bound). */
  maxOpen?: number;
}
