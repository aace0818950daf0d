// A minimal Streamable-HTTP-shaped upstream for bench/http.mjs: POST /mcp answers a tools/call with a
// JSON body, or (header x-sse: 1) with an SSE stream whose first event is written at once. Prints its port.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'ok' }] } });
    if (req.headers['x-sse'] === '1') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'bench-session' });
      res.end(`event: message\nid: 1\ndata: ${body}\n\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'bench-session' });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
