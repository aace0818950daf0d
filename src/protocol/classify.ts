/**
 * One parsed JSON value → what kind of JSON-RPC message it is. Pure and allocation-light: one small
 * object per message, no copies of the message.
 *
 * `kind` is `invalid` when the value is not a JSON-RPC 2.0 message at all (not an object, `jsonrpc` is not
 * "2.0", no method and no result/error, an id of the wrong type). A recognisable message with a defect
 * (params not structured, a malformed error object, result and error together) keeps its kind and
 * carries `defect` so it can still be paired and then marked.
 */
import { isErrorObject, isObject, isRequestId, type RequestId } from './jsonrpc.js';

export type MessageKind = 'request' | 'response' | 'error' | 'notification' | 'invalid';

/** The shape a message has (also for invalid ones, when recognisable): drives pairing. */
export type Shape = 'request' | 'notification' | 'answer' | 'unknown';

export interface Classified {
  kind: MessageKind;
  shape: Shape;
  /** The id when it is a string or number. */
  id?: RequestId;
  /** The message has an `id` member (of any value). */
  hasId: boolean;
  /** `id` is present and null, or (answers) absent. */
  nullId: boolean;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
  /** Both result and error present. */
  both: boolean;
  /** Why the message is invalid or defective, in plain words. */
  defect?: string;
}

/** Classify one element (a whole line, or one element of a batch). Never throws. */
export function classify(value: unknown): Classified {
  if (!isObject(value)) {
    return {
      kind: 'invalid',
      shape: 'unknown',
      hasId: false,
      nullId: false,
      both: false,
      defect: `a JSON-RPC message must be an object, not ${describe(value)}`,
    };
  }
  const hasId = 'id' in value;
  const c: Classified = { kind: 'invalid', shape: 'unknown', hasId, nullId: false, both: false };
  const method = value['method'];
  const id = value['id'];
  if (isRequestId(id)) c.id = id;
  else if (id === null) c.nullId = true;
  const badId = hasId && id !== null && c.id === undefined;

  if (method !== undefined) {
    if (typeof method !== 'string') {
      c.defect = `"method" must be a string, not ${describe(method)}`;
      return c;
    }
    c.method = method;
    c.params = value['params'];
    c.shape = hasId ? 'request' : 'notification';
    if (badId) {
      c.defect = `"id" must be a string or a number, not ${describe(id)}`;
      return c;
    }
    if (value['jsonrpc'] !== '2.0') {
      c.defect = jsonrpcDefect(value['jsonrpc']);
      return c;
    }
    c.kind = hasId ? 'request' : 'notification';
    if (c.params !== undefined && typeof c.params !== 'object') {
      c.defect = `"params" must be an object or an array, not ${describe(c.params)}`;
    } else if (c.params === null) {
      c.defect = '"params" must be an object or an array, not null';
    }
    return c;
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (!hasResult && !hasError) {
    c.defect = 'no "method", "result" or "error": neither a request, a notification nor a response';
    return c;
  }
  c.shape = 'answer';
  if (!hasId) c.nullId = true;
  if (hasResult) c.result = value['result'];
  if (hasError) c.error = value['error'];
  if (badId) {
    c.defect = `"id" must be a string, a number or null, not ${describe(id)}`;
    return c;
  }
  if (value['jsonrpc'] !== '2.0') {
    c.defect = jsonrpcDefect(value['jsonrpc']);
    return c;
  }
  if (hasError) {
    c.kind = 'error';
    c.both = hasResult;
    if (!isErrorObject(c.error)) c.defect = '"error" must be an object with an integer "code" and a string "message"';
  } else {
    c.kind = 'response';
  }
  return c;
}

function jsonrpcDefect(v: unknown): string {
  return v === undefined ? 'missing "jsonrpc": "2.0"' : `"jsonrpc" must be "2.0", not ${describe(v)}`;
}

/** A few words about a JSON value, never its content beyond a short scalar. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return v.length <= 20 ? `the string ${JSON.stringify(v)}` : 'a string';
    case 'number':
      return `the number ${v}`;
    case 'boolean':
      return String(v);
    case 'object':
      return 'an object';
    default:
      return typeof v;
  }
}
