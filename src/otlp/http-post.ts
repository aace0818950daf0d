/** The network edge of the live exporter: one POST, resolved with the status (never rejects). */
import * as http from 'node:http';
import * as https from 'node:https';

export interface PostResult {
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** Retry-After in ms when the receiver sent one. */
  retryAfterMs?: number;
  error?: string;
}

export type Post = (body: Buffer, contentType: string) => Promise<PostResult>;

/** A poster for `url` on a keep-alive agent, so batches reuse one connection. */
export function httpPoster(url: string, headers: Record<string, string>, timeoutMs: number): Post {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  const agent = new mod.Agent({ keepAlive: true, maxSockets: 1 });
  return (body, contentType) =>
    new Promise<PostResult>((resolve) => {
      let done = false;
      const finish = (r: PostResult) => {
        if (!done) {
          done = true;
          resolve(r);
        }
      };
      const req = mod.request(
        u,
        { method: 'POST', agent, headers: { ...headers, 'content-type': contentType, 'content-length': String(body.length) }, timeout: timeoutMs },
        (res) => {
          res.resume(); // the body (an ExportTraceServiceResponse) is not needed
          res.on('end', () => finish({ status: res.statusCode ?? 0, retryAfterMs: retryAfter(res.headers['retry-after']) }));
          res.on('error', (err) => finish({ status: res.statusCode ?? 0, error: err.message }));
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (err) => finish({ status: 0, error: (err as NodeJS.ErrnoException).code ?? err.message }));
      req.end(body);
    });
}

function retryAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
