/** A line's bytes as text for a reader of JSON lines: UTF-8, a trailing CR dropped; null for a blank line. Pure. */
export function lineText(data: Buffer): string | null {
  let text = data.toString('utf8');
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return text.trim() === '' ? null : text;
}
