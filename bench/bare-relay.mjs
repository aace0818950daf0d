#!/usr/bin/env node
// The floor for any Node stdio proxy: spawn the server, pipe both ways with stream.pipe, no parsing,
// no log. Usage: node bench/bare-relay.mjs <command> [args...]
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: bare-relay.mjs <command> [args...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stdin.on('error', () => {});
child.on('close', (code, signal) => {
  // the server is gone and its output is relayed; the host may keep our stdin open, so leave explicitly
  const status = code ?? (signal ? 128 : 1);
  process.stdout.end(() => process.exit(status));
});
