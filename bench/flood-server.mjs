#!/usr/bin/env node
// A sick server for the relay floods bench (bench/relay-floods.mjs). Answers initialize, then on
// notifications/initialized floods:
//   stderr <n>            n stderr lines ("working 1" … "working n") as fast as the pipe takes them
//   notify <rate> <secs>  rate notifications/message a second for secs seconds, in 10 ms ticks
// then sends one last notifications/message with data "flood-done" and leaves when stdin closes.
// Backpressure is respected (a write that returns false waits for drain), as a real server's would.
import { onLines } from './lines.mjs';

const [mode, a, b] = process.argv.slice(2);
const out = process.stdout;
const err = process.stderr;

const drained = (s) => new Promise((r) => s.once('drain', r));

async function floodStderr(n) {
  const batch = 200;
  for (let i = 1; i <= n; ) {
    let text = '';
    for (let k = 0; k < batch && i <= n; k++, i++) text += `working ${i}\n`;
    if (!err.write(text)) await drained(err);
  }
}

async function floodNotify(rate, secs) {
  const perTick = Math.round(rate / 100);
  const t0 = performance.now();
  let sent = 0;
  const total = rate * secs;
  while (sent < total) {
    let text = '';
    for (let k = 0; k < perTick && sent < total; k++) text += `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick ${++sent}"}}\n`;
    if (!out.write(text)) await drained(out);
    // the next tick at its time; a relay that falls behind shows as a longer flood, not a faster server
    const due = t0 + (sent / rate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

onLines(process.stdin, async (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') {
    out.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { logging: {} }, serverInfo: { name: 'flood', version: '1.0.0' } } })}\n`);
  } else if (msg.method === 'notifications/initialized') {
    if (mode === 'stderr') await floodStderr(Number(a));
    else await floodNotify(Number(a), Number(b));
    out.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"flood-done"}}\n');
  }
});
process.stdin.on('end', () => process.exit(0));
