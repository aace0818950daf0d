/** The proxy's sink flags: --otlp with or without a URL, --otlp-content, repeatable --ship with its options. */
import { describe, expect, it } from 'vitest';
import { bareCommand, parseProxyArgs } from '../../src/cli/commands/run.js';
import type { ProxyOptions } from '../../src/proxy/run-proxy.js';

const parse = (...argv: string[]): ProxyOptions => {
  const r = parseProxyArgs(argv, {});
  if (typeof r === 'string') throw new Error(`got ${r}`);
  return r;
};

describe('sink flags', () => {
  it('are off unless given', () => {
    const o = parse('--', 'node', 's.js');
    expect(o.otlp).toBeUndefined();
    expect(o.ship).toBeUndefined();
  });

  it('--otlp takes a following URL, an inline one, or none (then the environment decides)', () => {
    expect(parse('--otlp', 'http://c:4318', '--', 'node').otlp).toBe('http://c:4318');
    expect(parse('--otlp=https://c/v1/traces', '--', 'node').otlp).toBe('https://c/v1/traces');
    const bare = parse('--otlp', 'node', 's.js');
    expect(bare.otlp).toBeNull();
    expect(bare.command).toBe('node');
    expect(parse('--otlp', '--otlp-content', '--', 'node').otlpContent).toBe(true);
  });

  it('--ship repeats; --ship-options belongs to the --ship before it', () => {
    const o = parse('--ship', 'pino-roll', '--ship-options', '{"file":"/x"}', '--ship=./mine.js', '--', 'node');
    expect(o.ship).toEqual([{ target: 'pino-roll', options: { file: '/x' } }, { target: './mine.js' }]);
  });

  it('bad values are usage errors', () => {
    expect(() => parse('--ship-options', '{}', '--', 'node')).toThrow(/after the --ship/);
    expect(() => parse('--ship', 'x', '--ship-options', '[1]', '--', 'node')).toThrow(/JSON object/);
    expect(() => parse('--ship', 'x', '--ship-options', '{', '--', 'node')).toThrow(/JSON object/);
    expect(() => parse('--otlp-content', '--', 'node')).toThrow(/needs --otlp/);
    expect(() => parse('--otlp=ftp://x', '--', 'node')).toThrow(/http/);
    expect(() => parseProxyArgs(['--otlp', '--', 'node'], { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/not supported/);
  });

  it('bareCommand skips the values of sink flags', () => {
    expect(bareCommand(['--ship', 'pino-roll', 'srv'])).toBe('srv');
    expect(bareCommand(['--otlp', 'http://c', 'srv'])).toBe('srv');
    expect(bareCommand(['--otlp', 'srv'])).toBe('srv');
  });
});
