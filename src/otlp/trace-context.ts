/**
 * What a span takes from a message besides its record: the W3C trace context a request carries (in
 * `_meta` or, in HTTP mode, the POST's header), an error's code and message, ids derived by hash. Pure.
 */
import { createHash } from 'node:crypto';
import type { LogRecord } from '../log/record.js';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
/** The all-zero ids W3C trace context declares invalid. */
export const ZERO_TRACE = '0'.repeat(32);
export const ZERO_SPAN = '0'.repeat(16);

/** `bytes` bytes of a hash of `input`, as hex: ids that come out the same for the same session and seq. */
export function hex(input: string, bytes: number): string {
  return createHash('sha256').update(input).digest('hex').slice(0, bytes * 2);
}

/** The W3C traceparent of a request (`params._meta.traceparent`), or null. */
export function traceparentOf(msg: unknown): { traceId: string; spanId: string } | null {
  if (typeof msg !== 'object' || msg === null) return null;
  const params = (msg as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return null;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return null;
  const tp = (meta as { traceparent?: unknown }).traceparent;
  return typeof tp === 'string' ? parseTraceparent(tp) : null;
}

/** A W3C traceparent value's trace and parent span, or null when it is malformed or all zeros. */
export function parseTraceparent(tp: string): { traceId: string; spanId: string } | null {
  const m = TRACEPARENT.exec(tp.trim().toLowerCase());
  if (!m || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return null;
  return { traceId: m[1]!, spanId: m[2]! };
}

/** HTTP mode: the `traceparent` header of the POST that carried a request (`http.traceparent`). */
export function headerTraceparent(record: LogRecord): { traceId: string; spanId: string } | null {
  const h = record['http'];
  if (typeof h !== 'object' || h === null) return null;
  const tp = (h as { traceparent?: unknown }).traceparent;
  return typeof tp === 'string' ? parseTraceparent(tp) : null;
}

/** A value as JSON text for an attribute; '' for what JSON cannot hold. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** The error object of an answer, if it has one. */
export function errorOf(msg: unknown): Record<string, unknown> | undefined {
  const e = (msg as { error?: unknown } | null)?.error;
  return typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : undefined;
}

/** An error answer's code, when it is a number. */
export function errorCode(msg: unknown): number | undefined {
  const c = errorOf(msg)?.['code'];
  return typeof c === 'number' ? c : undefined;
}

/** An error answer's message, when it is a string. */
export function errorMessage(msg: unknown): string | undefined {
  const m = errorOf(msg)?.['message'];
  return typeof m === 'string' ? m : undefined;
}
