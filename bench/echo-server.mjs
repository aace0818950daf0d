#!/usr/bin/env node
// The bench's MCP-shaped echo server (stdio, newline-delimited JSON-RPC 2.0).
//   initialize            → result; _meta carries this process's start time (performance.timeOrigin) and pid,
//                           so the client can measure how long a proxy took to spawn us.
//   tools/call echo       → result.content[0].text = arguments.payload (the same string, whole)
//   tools/call stream     → arguments.count `notifications/message` (each with a short data string), then
//                           a result whose text is the count.
//   ping                  → {}
// Written for speed so the server is not what the bench measures: one JSON.parse and one
// JSON.stringify per message, no validation beyond what the bench needs.
import { performance } from 'node:perf_hooks';
import { onLines } from './lines.mjs';
import { flushed, writeEach, WRITE_EACH } from './write-each.mjs';

const out = process.stdout;
let waiting = false;
const backlog = [];

function send(text) {
  if (WRITE_EACH) return writeEach(1, text);
  if (waiting) {
    backlog.push(text);
    return;
  }
  if (!out.write(text)) {
    waiting = true;
    out.once('drain', drain);
  }
}

function drain() {
  waiting = false;
  while (backlog.length > 0 && !waiting) {
    const t = backlog.shift();
    if (!out.write(t)) {
      waiting = true;
      out.once('drain', drain);
    }
  }
  if (!waiting && pendingStream) pendingStream();
  if (!waiting && ending) leave();
}

let ending = false;
function leave() {
  if (WRITE_EACH) return void flushed(1).then(() => process.exit(0));
  // everything handed to stdout is flushed once the stream has finished
  out.end(() => process.exit(0));
}

let pendingStream = null;

function result(id, value) {
  send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(value)}}\n`);
}

function error(id, code, message) {
  send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${JSON.stringify({ code, message })}}\n`);
}

// Streams `count` notifications, pausing on backpressure so our own memory stays flat.
function stream(id, count, size) {
  const data = 'n'.repeat(Math.max(0, size));
  let i = 0;
  const step = () => {
    pendingStream = null;
    while (i < count) {
      i++;
      const line = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"bench","data":"${data}${i}"}}\n`;
      if (WRITE_EACH) {
        writeEach(1, line);
        continue;
      }
      if (!out.write(line)) {
        waiting = true;
        pendingStream = step;
        out.once('drain', drain);
        return;
      }
    }
    result(id, { content: [{ type: 'text', text: String(count) }] });
  };
  step();
}

function handle(line) {
  if (line.length === 0) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    error(null, -32700, 'parse error');
    return;
  }
  if (msg.id === undefined) return; // notification
  switch (msg.method) {
    case 'initialize':
      result(msg.id, {
        protocolVersion: msg.params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {}, logging: {} },
        serverInfo: { name: 'bench-echo', version: '1.0.0' },
        _meta: { 'bench/timeOrigin': performance.timeOrigin, 'bench/pid': process.pid },
      });
      return;
    case 'ping':
      result(msg.id, {});
      return;
    case 'tools/call': {
      const name = msg.params?.name;
      const args = msg.params?.arguments ?? {};
      if (name === 'echo') {
        send(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":{"content":[{"type":"text","text":${JSON.stringify(String(args.payload ?? ''))}}]}}\n`);
      } else if (name === 'stream') stream(msg.id, Number(args.count ?? 0), Number(args.size ?? 32));
      else error(msg.id, -32602, `unknown tool ${name}`);
      return;
    }
    default:
      error(msg.id, -32601, `method not found: ${msg.method}`);
  }
}

onLines(process.stdin, handle);
process.stdin.on('end', () => {
  ending = true;
  if (!waiting) leave();
});
