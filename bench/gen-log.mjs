/**
 * Writes a large mcp-tap log directly in the documented record format (docs/log-format.md), the way the
 * proxy writes a session of `pairs` tools/call echo round trips with `payloadBytes` of text each way:
 * start, spawn, the handshake, the lifecycle event, the pairs, then stdin-closed, exit and end. Used by the
 * reader bench and by the bounded-memory tests, where running the real proxy for 200,000 records would
 * take minutes. `every` hooks let a test plant error answers, isError results and findings;
 * `handshake: false` leaves out initialize (the client never sent it) and `requestNote` puts that note on
 * every request: with `{ handshake: false, requestNote: 'before-initialize' }` every request carries a
 * finding, with `errorEvery: 1` the server answers every call with an error, with `unanswered: true` it
 * answers none (the sick sessions).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * @param {string} path
 * @param {{ pairs?: number, payloadBytes?: number, session?: string, errorEvery?: number, isErrorEvery?: number, noteEvery?: number, stderrEvery?: number, t0?: number, handshake?: boolean, requestNote?: string, errorCodes?: number[], unanswered?: boolean }} [o]
 * @returns {Promise<{ records: number, bytes: number, session: string }>}
 */
export async function writeLargeLog(path, o = {}) {
  const pairs = o.pairs ?? 100_000;
  const size = o.payloadBytes ?? 1024;
  const session = o.session ?? 'mz00bench-0000beef';
  const t0 = o.t0 ?? 1796032583990.5;
  const out = createWriteStream(path, { mode: 0o600 });
  const payload = 'x'.repeat(size);
  let seq = 0;
  let bytes = 0;
  let t = t0;
  let buf = '';
  const env = (from, kind) => `{"v":1,"time":${t},"session":"${session}","seq":${++seq},"from":"${from}","kind":"${kind}"`;
  const push = async (line) => {
    buf += line + '\n';
    if (buf.length >= 1 << 20) {
      bytes += Buffer.byteLength(buf);
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  };
  await push(`${env('proxy', 'event')},"event":"start","name":"bench","command":"node","args":["bench/echo-server.mjs"],"cwd":"/tmp","pid":4242,"versions":{"mcpTap":"0.1.0","node":"20.20.0","platform":"linux","arch":"x64"},"envNames":["HOME","PATH"],"log":${JSON.stringify(path)},"maxLogBytes":1048576}`);
  await push(`${env('proxy', 'event')},"event":"spawn","serverPid":4243}`);
  if (o.handshake !== false) {
    const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-client","version":"1.0.0"}}}';
    await push(`${env('client', 'request')},"id":0,"method":"initialize","bytes":${init.length},"msg":${init}}`);
    t += 0.5;
    const initResult = '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"echo","version":"1.0.0"}}}';
    await push(`${env('server', 'response')},"id":0,"method":"initialize","reqSeq":3,"ms":0.5,"bytes":${initResult.length},"msg":${initResult}}`);
    await push(`${env('proxy', 'event')},"event":"lifecycle","era":"handshake","protocolVersion":"2025-11-25","offeredVersion":"2025-11-25","clientInfo":{"name":"bench-client","version":"1.0.0"},"serverInfo":{"name":"echo","version":"1.0.0"},"clientCapabilities":{},"serverCapabilities":{"tools":{}}}`);
    await push(`${env('client', 'notification')},"method":"notifications/initialized","bytes":54,"msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}`);
  }
  for (let i = 1; i <= pairs; i++) {
    t += 0.05;
    const reqSeq = seq + 1;
    const req = `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"payload":"${i}:${payload}"}}}`;
    const reqNote = o.requestNote ? `,"notes":[{"code":"${o.requestNote}","text":"the client sent tools/call before the server answered initialize: only ping is allowed until then"}]` : '';
    await push(`${env('client', 'request')},"id":${i},"method":"tools/call","target":"echo","bytes":${req.length}${reqNote},"msg":${req}}`);
    if (o.stderrEvery && i % o.stderrEvery === 0) await push(`${env('server', 'stderr')},"bytes":12,"raw":"working ${i}"}`);
    const ms = 0.05 + ((i * 7919) % 1000) / 100; // 0.05–10.04 ms, spread evenly, known to the tests
    t += ms;
    if (o.unanswered) continue;
    const note = o.noteEvery && i % o.noteEvery === 0 ? `,"notes":[{"code":"slow-answer","text":"planted finding ${i}"}]` : '';
    if (o.errorEvery && i % o.errorEvery === 0) {
      const codes = o.errorCodes ?? [-32603];
      const err = `{"jsonrpc":"2.0","id":${i},"error":{"code":${codes[i % codes.length]},"message":"planted error ${i}"}}`;
      await push(`${env('server', 'error')},"id":${i},"method":"tools/call","target":"echo","reqSeq":${reqSeq},"ms":${ms},"bytes":${err.length}${note},"msg":${err}}`);
    } else {
      const isErr = o.isErrorEvery && i % o.isErrorEvery === 0;
      const res = `{"jsonrpc":"2.0","id":${i},"result":{"content":[{"type":"text","text":"${i}:${payload}"}]${isErr ? ',"isError":true' : ''}}}`;
      await push(`${env('server', 'response')},"id":${i},"method":"tools/call","target":"echo","reqSeq":${reqSeq},"ms":${ms}${isErr ? ',"isError":true' : ''},"bytes":${res.length}${note},"msg":${res}}`);
    }
  }
  await push(`${env('proxy', 'event')},"event":"stdin-closed"}`);
  await push(`${env('proxy', 'event')},"event":"exit","code":0,"signal":null}`);
  const pending = o.unanswered ? Array.from({ length: Math.min(pairs, 1000) }, (_, k) => ({ from: 'client', id: k + 1, method: 'tools/call', seq: (o.handshake === false ? 2 : 6) + k + 1 })) : [];
  await push(`${env('proxy', 'event')},"event":"end","pending":${JSON.stringify(pending)},"pendingCount":${o.unanswered ? pairs : 0},"cancelledPending":[],"exitCode":0,"exitSignal":null}`);
  bytes += Buffer.byteLength(buf);
  out.end(buf);
  await once(out, 'finish');
  return { records: seq, bytes, session };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, pairs, shape] = process.argv.slice(2);
  if (!path) {
    console.error('usage: node bench/gen-log.mjs <path> [pairs] [healthy|no-initialize|all-errors|unanswered]');
    process.exit(2);
  }
  const sick = { healthy: {}, 'no-initialize': { handshake: false, requestNote: 'before-initialize' }, 'all-errors': { errorEvery: 1 }, unanswered: { unanswered: true } }[shape ?? 'healthy'];
  if (!sick) {
    console.error(`unknown shape ${shape}`);
    process.exit(2);
  }
  const r = await writeLargeLog(path, { pairs: pairs ? Number(pairs) : undefined, ...sick });
  console.log(JSON.stringify(r));
}
