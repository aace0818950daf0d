/** Entry point of the bundled demo server: `node dist/serve-demo.js`, stdio transport; exits at stdin EOF. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDemoServer } from './demo-server.js';

const server = createDemoServer();
await server.connect(new StdioServerTransport());
// a well-behaved stdio server leaves when its host closes stdin
process.stdin.once('end', () => {
  void server.close().finally(() => process.exit(0));
});
