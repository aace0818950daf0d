/**
 * A unified diff of two texts, for --dry-run previews. Myers' algorithm over lines: cost grows with the
 * number of changed lines, not the file size, which matters for a large ~/.claude.json.
 */

type Op = { op: ' ' | '-' | '+'; line: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

/** Shortest edit script between two line arrays (Myers 1986, greedy forward with trace). */
function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  // Backtrack through the saved frontiers.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 1; d--) {
    const vd = trace[d]!; // frontier reached with d-1 edits
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ op: ' ', line: a[x - 1]! });
      x--;
      y--;
    }
    if (x === prevX) ops.push({ op: '+', line: b[y - 1]! });
    else ops.push({ op: '-', line: a[x - 1]! });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push({ op: ' ', line: a[x - 1]! });
    x--;
    y--;
  }
  return ops.reverse();
}

function show(line: string): string {
  return line.replace(/\r?\n$/, '');
}

/** The diff of `before` and `after` as unified-diff text ('' when they are equal). */
export function unifiedDiff(before: string, after: string, label: string, context = 3): string {
  if (before === after) return '';
  const ops = diffLines(splitLines(before), splitLines(after));
  const out = [`--- ${label}`, `+++ ${label}`];
  let i = 0;
  while (i < ops.length) {
    // find next change
    while (i < ops.length && ops[i]!.op === ' ') i++;
    if (i >= ops.length) break;
    let start = Math.max(0, i - context);
    let end = i;
    // extend the hunk while changes are within 2*context lines of each other
    for (;;) {
      while (end < ops.length && ops[end]!.op !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap]!.op === ' ') gap++;
      if (gap < ops.length && gap - end <= 2 * context) {
        end = gap;
        continue;
      }
      end = Math.min(ops.length, end + context);
      break;
    }
    let aLine = 1;
    let bLine = 1;
    for (let j = 0; j < start; j++) {
      if (ops[j]!.op !== '+') aLine++;
      if (ops[j]!.op !== '-') bLine++;
    }
    const hunk = ops.slice(start, end);
    const aCount = hunk.filter((o) => o.op !== '+').length;
    const bCount = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${aCount ? aLine : aLine - 1},${aCount} +${bCount ? bLine : bLine - 1},${bCount} @@`);
    for (const o of hunk) out.push(`${o.op}${show(o.line)}`);
    i = end;
    start = end;
  }
  return `${out.join('\n')}\n`;
}
