// One section of bench/results.md, between its `<!-- key:start -->` and `<!-- key:end -->` markers:
// replaced where it is, appended when the file has none. Shared by the bench scripts that write there.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Writes `section` (which holds its own markers) as section `key` of the results file `out`. */
export function writeSection(out, key, section) {
  const start = `<!-- ${key}:start -->`;
  const end = `<!-- ${key}:end -->`;
  let text = existsSync(out) ? readFileSync(out, 'utf8') : '# mcp-tap benchmark results\n\n';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a !== -1 && b !== -1) text = text.slice(0, a) + section.trimEnd() + text.slice(b + end.length);
  else text = `${text.trimEnd()}\n\n${section}`;
  writeFileSync(out, text);
}
