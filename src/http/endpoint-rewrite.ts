/**
 * Legacy HTTP+SSE (2024-11-05): the server's first SSE event, `endpoint`, tells the client where to POST.
 * A relative URL already resolves against mcp-tap's origin; an absolute one on the upstream's origin is
 * rewritten to mcp-tap's, so the host keeps posting through the tap. Every other byte passes unchanged.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** The endpoint event's data rewritten to the local origin, or null when it needs no change. */
export function rewriteEndpointData(data: string, upstreamOrigin: string, localOrigin: string): string | null {
  let url: URL;
  try {
    url = new URL(data);
  } catch {
    return null; // relative: resolves against the local URL the host connected to
  }
  if (url.origin !== upstreamOrigin) return null;
  return localOrigin + data.slice(url.origin.length);
}

/**
 * The first event's text rewritten when it is an `endpoint` event with an absolute upstream URL; null
 * when it is not (the bytes then pass as they are).
 */
export function rewriteEndpointEvent(text: string, upstreamOrigin: string, localOrigin: string): string | null {
  const m = /^(event: ?endpoint\r?\n(?:id:[^\r\n]*\r?\n)?data: ?)([^\r\n]*)(\r?\n)/.exec(text);
  if (m === null) return null;
  const data = rewriteEndpointData(m[2]!, upstreamOrigin, localOrigin);
  if (data === null) return null;
  return m[1]! + data + m[3]! + text.slice(m[0].length);
}

const PREFIXES = ['event: endpoint', 'event:endpoint'];
/** The first event is given up on (passed as is) past this size. */
const MAX_PROBE = 64 * 1024;

/**
 * Passes an SSE stream through; holds bytes back only while they may still be the start of an `endpoint`
 * event, and only until that event's blank line. Any other stream flows through at once.
 */
export class EndpointRewriter extends Transform {
  private probe: Buffer | null = Buffer.alloc(0);

  constructor(
    private readonly upstreamOrigin: string,
    private readonly localOrigin: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.probe === null) {
      done(null, chunk);
      return;
    }
    const held = Buffer.concat([this.probe, chunk]);
    const head = held.toString('latin1', 0, 16);
    const mayBe = PREFIXES.some((p) => (head.length >= p.length ? head.startsWith(p) : p.startsWith(head)));
    if (!mayBe || held.length > MAX_PROBE) {
      this.probe = null;
      done(null, held);
      return;
    }
    const text = held.toString('utf8');
    const end = /\r?\n\r?\n|\r\r/.exec(text);
    if (end === null) {
      this.probe = held;
      done();
      return;
    }
    this.probe = null;
    const rewritten = rewriteEndpointEvent(text, this.upstreamOrigin, this.localOrigin);
    done(null, rewritten === null ? held : Buffer.from(rewritten, 'utf8'));
  }

  override _flush(done: TransformCallback): void {
    const rest = this.probe;
    this.probe = null;
    done(null, rest !== null && rest.length > 0 ? rest : undefined);
  }
}
