import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../src/log/record.js';
import { buildFilter, globToRegExp, parseFilterOptions, type FilterOptions } from '../../src/view/filters.js';
import { UsageError } from '../../src/errors.js';

const records: LogRecord[] = readFileSync(new URL('../fixtures/logs/everything.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LogRecord);

/** "session#seq" of the records that pass. */
function pass(opts: FilterOptions): string[] {
  const f = buildFilter(opts);
  return records.filter(f).map((r) => `${r.session.slice(0, 2)}#${r.seq}`);
}

describe('globToRegExp', () => {
  it('matches method globs: * spans slashes, ? one character, the rest literal', () => {
    expect(globToRegExp('tools/*').test('tools/call')).toBe(true);
    expect(globToRegExp('tools/*').test('notifications/tools/list_changed')).toBe(false);
    expect(globToRegExp('*list*').test('notifications/tools/list_changed')).toBe(true);
    expect(globToRegExp('*list*').test('tools/list')).toBe(true);
    expect(globToRegExp('ping').test('ping')).toBe(true);
    expect(globToRegExp('ping').test('pings')).toBe(false);
    expect(globToRegExp('p?ng').test('pong')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
    expect(globToRegExp('(x)+[y]').test('(x)+[y]')).toBe(true);
  });
});

describe('buildFilter', () => {
  it('keeps everything without options', () => {
    expect(pass({})).toHaveLength(records.length);
  });

  it('target globs: a request naming the tool, prompt or resource, and its answer; a batch by its items', () => {
    expect(pass({ target: ['get-*'] })).toEqual(['s1#11', 's1#12']);
    expect(pass({ target: ['demo://*', 'echo'] })).toEqual(['s1#9', 's1#10', 's1#13', 's1#14']);
    const batch = { v: 1, time: 1, session: 'b', seq: 1, from: 'client', kind: 'batch', items: [{ kind: 'request', id: 1, method: 'tools/call', target: 'get-sum' }] } as unknown as LogRecord;
    expect(buildFilter({ target: ['get-sum'] })(batch)).toBe(true);
    expect(buildFilter({ target: ['echo'] })(batch)).toBe(false);
  });

  it('--method with one or several globs', () => {
    expect(pass({ method: ['tools/*'] })).toEqual(['s1#7', 's1#8', 's1#9', 's1#10', 's1#11', 's1#12', 's1#23', 's2#5', 's2#6']);
    expect(pass({ method: ['*list*'] })).toEqual(['s1#7', 's1#8', 's1#22', 's2#5', 's2#6']); // s1#22: batch element
    expect(pass({ method: ['initialize', 'prompts/get'] })).toEqual(['s1#3', 's1#4', 's1#15', 's1#19', 's2#3', 's2#4']);
  });

  it('--from', () => {
    const server = pass({ from: 'server' });
    expect(server).toContain('s1#4');
    expect(server).toContain('s1#17'); // stderr comes from the server
    expect(server).not.toContain('s1#3');
    expect(pass({ from: 'proxy' }).every((k) => records.find((r) => `${r.session.slice(0, 2)}#${r.seq}` === k)!.kind === 'event')).toBe(true);
  });

  it('--kind list', () => {
    expect(pass({ kind: ['error', 'stderr'] })).toEqual(['s1#14', 's1#17']);
    expect(pass({ kind: ['batch'] })).toEqual(['s1#22']);
  });

  it('--errors: error answers, isError results, findings, invalid lines, failure events, unanswered requests', () => {
    expect(pass({ errors: true })).toEqual(['s1#12', 's1#14', 's1#18', 's1#20', 's1#22', 's1#27', 's2#8', 's2#9']);
  });

  it('--grep: case-insensitive over method, target, raw, message and findings', () => {
    expect(pass({ grep: 'ECHO: HELLO' })).toEqual(['s1#10']); // inside the result JSON
    expect(pass({ grep: 'warming' })).toEqual(['s1#17']); // stderr raw
    expect(pass({ grep: 'get-sum' })).toEqual(['s1#11', 's1#12']); // target
    expect(pass({ grep: 'hosts will reject' })).toEqual(['s1#18']); // finding text
    expect(pass({ grep: 'SIGKILL' })).toEqual(['s2#8', 's2#9']); // event fields
  });

  it('--slow: answers at or above the threshold only', () => {
    expect(pass({ slow: 25.5 })).toEqual(['s1#4', 's1#14', 's1#19']);
    expect(pass({ slow: 1000 })).toEqual(['s1#14']);
    // every answer with a latency; an answer to an unknown id (no ms) is never "slow"
    expect(pass({ slow: 0 })).toEqual(pass({ kind: ['response', 'error'] }).filter((k) => k !== 's1#20'));
  });

  it('combinations are AND across filters', () => {
    expect(pass({ method: ['tools/*'], from: 'server' })).toEqual(['s1#8', 's1#10', 's1#12', 's2#6']);
    expect(pass({ method: ['tools/*'], errors: true })).toEqual(['s1#12']);
    expect(pass({ kind: ['response'], grep: 'everything', from: 'server' })).toEqual(['s1#4', 's2#4']);
    expect(pass({ errors: true, slow: 1000 })).toEqual(['s1#14']);
    expect(pass({ method: ['resources/*'], slow: 2000 })).toEqual([]);
    expect(pass({ from: 'client', kind: ['notification'], method: ['notifications/*'] })).toEqual(['s1#6']);
  });

  it('keepSeparators lets session start and end through', () => {
    expect(pass({ method: ['ping'], keepSeparators: true })).toEqual(['s1#1', 's1#22', 's1#27', 's2#1', 's2#10']);
    expect(pass({ method: ['ping'] })).toEqual(['s1#22']);
  });
});

describe('parseFilterOptions', () => {
  it('splits comma lists and repeated flags, parses numbers', () => {
    expect(parseFilterOptions({ method: ['tools/*,ping', 'initialize'], kind: 'request, response', slow: '250', errors: true, grep: 'x', from: 'client' })).toEqual({
      method: ['tools/*', 'ping', 'initialize'],
      kind: ['request', 'response'],
      slow: 250,
      errors: true,
      grep: 'x',
      from: 'client',
    });
    expect(parseFilterOptions({})).toEqual({});
  });

  it('rejects bad values with a UsageError', () => {
    expect(() => parseFilterOptions({ from: 'host' })).toThrow(UsageError);
    expect(() => parseFilterOptions({ kind: 'request,answer' })).toThrow(/unknown kind "answer"/);
    expect(() => parseFilterOptions({ slow: 'fast' })).toThrow(/--slow/);
    expect(() => parseFilterOptions({ slow: '-1' })).toThrow(UsageError);
  });
});
