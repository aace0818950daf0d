/**
 * Text kept as `raw` (non-JSON lines, stderr) must not blow up the record: JSON escaping can make a
 * string up to six times longer than its bytes (control characters become \u00XX). This cuts a string so
 * that its JSON-escaped form stays within a byte budget, scanning only when it could exceed it.
 */

/** `text` unchanged when its escaped form fits `budget` bytes, else its longest prefix that fits. */
export function capForJson(text: string, budget: number): { text: string; cut: boolean } {
  if (text.length * 6 <= budget) return { text, cut: false };
  let used = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    let w: number;
    if (c < 0x20) w = c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08 || c === 0x0c ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) w = 2;
    else if (c < 0x80) w = 1;
    else if (c < 0x800) w = 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        if (used + 4 > budget) return { text: text.slice(0, i), cut: true };
        used += 4;
        i++;
        continue;
      }
      w = 6; // lone surrogate: escaped
    } else if (c >= 0xd800 && c <= 0xdfff) w = 6;
    else w = 3;
    if (used + w > budget) return { text: text.slice(0, i), cut: true };
    used += w;
  }
  return { text, cut: false };
}

/** Buffer → text without its trailing CR (the CR of a CRLF line ending). */
export function lineText(buf: Buffer): string {
  let end = buf.length;
  if (end > 0 && buf[end - 1] === 0x0d) end--;
  return end === 0 ? '' : buf.toString('utf8', 0, end);
}
