#!/usr/bin/env node
// Summarizes a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time, and the
// inclusive time of mcp-tap's own functions. Usage: node bench/profile-top.mjs <file.cpuprofile> [n]
import { readFileSync } from 'node:fs';

const [file, nArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-top.mjs <file.cpuprofile> [n]\n');
  process.exit(2);
}
const n = Number(nArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((node) => [node.id, node]));
const self = new Map();
const dt = prof.timeDeltas;
let total = 0;
for (let i = 0; i < prof.samples.length; i++) {
  const d = dt[i] ?? 0;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + d);
  total += d;
}
const parent = new Map();
for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const name = (node) => {
  const f = node.callFrame;
  const url = f.url.replace(/^.*\/(dist|node_modules|bench)\//, '$1/').replace(/^node:/, '');
  return `${f.functionName || '(anonymous)'} ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
};
const selfBy = new Map();
const inclBy = new Map();
for (const [id, t] of self) {
  const node = byId.get(id);
  selfBy.set(name(node), (selfBy.get(name(node)) ?? 0) + t);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    inclBy.set(k, (inclBy.get(k) ?? 0) + t);
  }
}
const ms = (us) => (us / 1000).toFixed(1).padStart(8);
const pct = (us) => ((100 * us) / total).toFixed(1).padStart(5);
console.log(`total sampled ${ms(total)} ms`);
console.log('\nself time');
for (const [k, t] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${ms(t)} ms ${pct(t)}%  ${k}`);
console.log('\ninclusive time (dist/ functions)');
for (const [k, t] of [...inclBy].filter(([k]) => k.includes('dist/')).sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${ms(t)} ms ${pct(t)}%  ${k}`);
