/**
 * Which records the one-line terminal view must read whole: the rest it draws from the envelope alone
 * (method, target, id, latency, flags, findings), so tail parses and redacts only the envelope of them.
 */
import type { LogRecord } from '../log/record.js';

/** Notifications and requests whose line shows something from the body (render-line.ts notificationDetail, msgTarget). */
const DETAIL_METHODS = new Set(['notifications/progress', 'notifications/message', 'notifications/cancelled', 'notifications/resources/updated', 'initialize']);
const TARGET_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/** For the one-line view without --full, --json or --grep: does this record's line need its body? */
export function lineNeedsBody(head: LogRecord): boolean {
  switch (head.kind) {
    case 'request':
      if (head.target === undefined && TARGET_METHODS.has(head.method ?? '')) return true;
      return head.id === undefined || typeof head.method !== 'string' || DETAIL_METHODS.has(head.method);
    case 'response':
      if (head.isError === true) return true;
      return head.id === undefined || typeof head.method !== 'string' || DETAIL_METHODS.has(head.method);
    case 'notification':
      return typeof head.method !== 'string' || DETAIL_METHODS.has(head.method);
    default:
      // errors (their message), invalid lines, batches, anything newer
      return true;
  }
}
