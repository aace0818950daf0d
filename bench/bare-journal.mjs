#!/usr/bin/env node
// The floor for any Node proxy that keeps a log: the bare relay (spawn + stream.pipe both ways) plus a
// journal of every byte it relays, appended to a file with coalesced asynchronous writes (one in flight,
// like mcp-tap's), and no parsing at all. Usage: node bench/bare-journal.mjs <journal> <command> [args...]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';

const [journalPath, command, ...args] = process.argv.slice(2);
if (!journalPath || !command) {
  process.stderr.write('usage: bare-journal.mjs <journal> <command> [args...]\n');
  process.exit(2);
}
const fd = fs.openSync(journalPath, 'a', 0o600);
let queue = [];
let writing = false;
function flush(done) {
  if (queue.length === 0) {
    writing = false;
    done?.();
    return;
  }
  const buf = queue.length === 1 ? queue[0] : Buffer.concat(queue);
  queue = [];
  fs.write(fd, buf, () => (done ? flush(done) : setTimeout(flush, 5)));
}
function journal(chunk) {
  queue.push(chunk);
  if (!writing) {
    writing = true;
    setTimeout(flush, 5);
  }
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.on('data', journal);
child.stdout.on('data', journal);
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stdin.on('error', () => {});
child.on('close', (code, signal) => {
  const status = code ?? (signal ? 128 : 1);
  const exit = () => process.stdout.end(() => process.exit(status));
  if (writing) setTimeout(() => flush(exit), 10); // let the write in flight finish, then write the rest
  else flush(exit);
});
