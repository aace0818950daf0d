/**
 * Header lists for the relay (pure): raw name/value pairs as received, minus the hop-by-hop fields of
 * RFC 9110 §7.6.1 (they describe one connection, not the message), with `Host` set for the upstream.
 */

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Names listed in Connection headers: hop-by-hop too. */
function connectionOptions(raw: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') {
      for (const n of raw[i + 1]!.split(',')) if (n.trim() !== '') names.add(n.trim().toLowerCase());
    }
  }
  return names;
}

/** End-to-end headers of a message as a flat [name, value, …] list, case and order kept. */
export function endToEnd(raw: readonly string[], replaceHost?: string): string[] {
  const listed = connectionOptions(raw);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed.has(lower)) continue;
    if (lower === 'host' && replaceHost !== undefined) {
      out.push(name, replaceHost);
      replaceHost = undefined;
      continue;
    }
    out.push(name, raw[i + 1]!);
  }
  if (replaceHost !== undefined) out.unshift('Host', replaceHost);
  return out;
}

/** The first value of a header in a raw list (case-insensitive name). */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) return raw[i + 1];
  return undefined;
}
