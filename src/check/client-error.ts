/** The SDK client's error messages made one readable line (zod dumps its issues as pretty-printed JSON). */

type Obj = Record<string, unknown>;

function zodIssues(text: string): string | null {
  const start = text.indexOf('[');
  if (start < 0) return null;
  let issues: unknown;
  try {
    issues = JSON.parse(text.slice(start));
  } catch {
    return null;
  }
  if (!Array.isArray(issues) || issues.length === 0) return null;
  const parts = issues.slice(0, 5).map((i) => {
    const o = (typeof i === 'object' && i !== null ? i : {}) as Obj;
    const path = Array.isArray(o['path']) ? (o['path'] as unknown[]).map(String).join('/') : '';
    return `${path ? `/${path}: ` : ''}${typeof o['message'] === 'string' ? o['message'] : JSON.stringify(i)}`;
  });
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  const prefix = text.slice(0, start).trim();
  return `${prefix ? `${prefix} ` : ''}${parts.join('; ')}${more}`;
}

/** One line, at most `max` characters. */
export function describeClientError(message: string, max = 500): string {
  const line = (zodIssues(message) ?? message).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
