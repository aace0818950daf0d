/**
 * The Node edge of the live UI: a node:http server on the loopback address that turns each request into
 * a web Request, asks the handler, and streams its Response back (the event stream included), stopping
 * the stream when the browser goes away.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';

export type Handler = (req: Request) => Promise<Response>;

function toRequest(req: IncomingMessage, port: number): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.append(k, x);
    else if (v !== undefined) headers.set(k, v);
  }
  // the URL is ours; the Host header the client sent stays in the headers for the guard to judge
  return new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, { method: req.method, headers });
}

async function answer(handler: Handler, req: IncomingMessage, res: ServerResponse, port: number): Promise<void> {
  const response = await handler(toRequest(req, port));
  const head: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    head[k] = v;
  });
  res.writeHead(response.status, head);
  if (!response.body || req.method === 'HEAD') {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  res.on('close', () => body.destroy());
  body.on('error', () => res.destroy());
  body.pipe(res);
}

/** Listens on 127.0.0.1:`port` (0: any free port) and serves `handler(port)`; resolves with the server and its port. */
export async function serveLoopback(port: number, makeHandler: (port: number) => Handler): Promise<{ server: Server; port: number }> {
  let handler: Handler | null = null;
  let bound = 0;
  const server = createServer((req, res) => {
    if (!handler) {
      res.writeHead(503).end();
      return;
    }
    answer(handler, req, res, bound).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new UsageError(`port ${port} on 127.0.0.1 is in use; pick another with --port, or leave it out for a free one`) : err);
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  handler = makeHandler(bound);
  return { server, port: bound };
}
