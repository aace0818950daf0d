// Cold start of the CLI's entry points: wall time from spawn to exit of `node bin/mcp-tap.js <args>`,
// beside `node -e 0` (Node's own start, the floor). Alternating commands, median of `runs` each.
import { spawnSync } from 'node:child_process';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};

/** { label → median ms } for each command line, plus the Node floor. */
export function measureCliCold(tap, runs = 9) {
  const cases = [
    { label: 'node -e 0 (floor)', args: ['-e', '0'] },
    { label: 'mcp-tap --version', args: [tap, '--version'] },
    { label: 'mcp-tap tail --help', args: [tap, 'tail', '--help'] },
    { label: 'mcp-tap --help', args: [tap, '--help'] },
  ];
  const times = new Map(cases.map((c) => [c.label, []]));
  for (let r = 0; r < runs; r++) {
    for (const c of r % 2 ? [...cases].reverse() : cases) {
      const t = process.hrtime.bigint();
      const res = spawnSync(process.execPath, c.args, { stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (res.status !== 0) throw new Error(`${c.label} exited ${res.status}: ${res.stderr}`);
      times.get(c.label).push(ms);
    }
  }
  return cases.map((c) => ({ label: c.label, ms: median(times.get(c.label)), runs: times.get(c.label) }));
}
