/** Strings a record head writes between quotes as they are (head-bytes.ts, head-templates.ts). Pure. */

/** Is the string printable ASCII without `"` or `\` (written as is between quotes)? */
export function plain(s: string): boolean {
  const n = s.length;
  if (n > 256) return false;
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}
