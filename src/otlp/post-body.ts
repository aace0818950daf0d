/**
 * What the span and metric exporters share around a POST: the body in the run's OTLP protocol, a
 * deadline on the answer at exit, and a result in a few words for a warning. Pure but for the timer.
 */
import type { OtlpProtocol } from './otlp-config.js';
import type { PostResult } from './http-post.js';

/** A body ready to post, with its content type. */
export interface Encoded {
  body: Buffer;
  type: string;
}

/** The request as OTLP/JSON or protobuf; an encoding that throws is a result that was never sent (-1). */
export function encodeFor(protocol: OtlpProtocol, json: () => unknown, protobuf: () => Buffer): Encoded | PostResult {
  try {
    if (protocol === 'http/json') return { body: Buffer.from(JSON.stringify(json())), type: 'application/json' };
    return { body: protobuf(), type: 'application/x-protobuf' };
  } catch (err) {
    return { status: -1, error: `encoding failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** `sending`'s result, or after `ms` a result with no answer and `error` (at exit, when waiting has an end). */
export async function within(sending: Promise<PostResult>, ms: number, error: string): Promise<PostResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PostResult>((resolve) => {
    timer = setTimeout(() => resolve({ status: 0, error }), Math.max(0, ms));
  });
  const r = await Promise.race([sending, late]);
  clearTimeout(timer);
  return r;
}

/** `HTTP 503`, or why no answer came. */
export function describeResult(r: PostResult): string {
  if (r.status > 0) return `HTTP ${r.status}`;
  return r.error ?? 'no answer';
}
