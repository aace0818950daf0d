import { describe, expect, it } from 'vitest';
import { formatPath, parsePattern, patternMatches } from '../../src/replay/json-path.js';
import { UsageError } from '../../src/errors.js';

const matches = (pattern: string, path: Array<string | number>): boolean => patternMatches(parsePattern(pattern), path);

describe('formatPath', () => {
  it('writes identifiers with dots, indices in brackets and other keys quoted', () => {
    expect(formatPath(['result', 'content', 0, 'text'])).toBe('result.content[0].text');
    expect(formatPath(['result', 'weird key', 'a-b'])).toBe('result["weird key"]["a-b"]');
    expect(formatPath(['result', '_meta', '$x'])).toBe('result._meta.$x');
    expect(formatPath([])).toBe('$');
  });
});

describe('--ignore patterns', () => {
  it('match the path they name and everything below it', () => {
    expect(matches('result._meta', ['result', '_meta'])).toBe(true);
    expect(matches('result._meta', ['result', '_meta', 'a', 0])).toBe(true);
    expect(matches('result._meta', ['result', 'content'])).toBe(false);
    expect(matches('result._meta', ['result'])).toBe(false);
  });

  it('accept a leading $ and $.', () => {
    expect(matches('$.result._meta', ['result', '_meta'])).toBe(true);
    expect(matches('$result', ['result'])).toBe(true);
    expect(matches('$["result"]', ['result', 'x'])).toBe(true);
  });

  it('take [*] and .* as any one key or index', () => {
    expect(matches('result.content[*].text', ['result', 'content', 3, 'text'])).toBe(true);
    expect(matches('result.content[*].text', ['result', 'content', 3, 'type'])).toBe(false);
    expect(matches('result.*.text', ['result', 'x', 'text'])).toBe(true);
    expect(matches('result.content[1]', ['result', 'content', 1, 'text'])).toBe(true);
    expect(matches('result.content[1]', ['result', 'content', 2])).toBe(false);
  });

  it('take .. as any number of levels', () => {
    expect(matches('..timestamp', ['result', 'a', 0, 'timestamp'])).toBe(true);
    expect(matches('$..timestamp', ['timestamp'])).toBe(true);
    expect(matches('result..id', ['result', 'items', 4, 'id'])).toBe(true);
    expect(matches('result..id', ['error', 'id'])).toBe(false);
    expect(matches('$..[0]', ['result', 'content', 0])).toBe(true);
  });

  it('take quoted names for keys that are not identifiers', () => {
    expect(matches('result["a b"]', ['result', 'a b'])).toBe(true);
    expect(matches("result['a.b']", ['result', 'a.b'])).toBe(true);
    expect(matches('result["a.b"]', ['result', 'a', 'b'])).toBe(false);
  });

  it('reject malformed patterns with a usage error that says what is wrong', () => {
    for (const bad of ['', '$', 'a[', 'a[x]', 'a..', 'a.', 'a]b', 'a["x]']) {
      expect(() => parsePattern(bad), bad).toThrow(UsageError);
    }
    expect(() => parsePattern('a[')).toThrow(/not closed/);
  });
});
