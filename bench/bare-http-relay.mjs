// The floor for bench/http.mjs: the least a Node reverse proxy does (node:http in, node:http out, pipe
// both bodies, keep-alive upstream), no analysis, no log. Usage: node bare-http-relay.mjs <upstream-port>
import { createServer, request, Agent } from 'node:http';

const upstreamPort = Number(process.argv[2]);
const agent = new Agent({ keepAlive: true });
const server = createServer({ noDelay: true }, (req, res) => {
  const up = request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
