/**
 * Runs one revision's table of hand-written examples against src/spec: every row has a valid message
 * (no violation) and an invalid one whose broken members (JSON Pointers) are written down by hand from
 * that revision's schema.ts. The table must name every method the revision defines (the lists given here,
 * copied by hand from the schema's ClientRequest / ServerRequest / …Notification unions), and a method the
 * revision does not define must have no shape.
 */
import { describe, expect, it } from 'vitest';
import { checkMessage, type MessageKind } from '../../../src/spec/check-message.js';
import type { Revision } from '../../../src/spec/revision.js';
import { shapesOf } from '../../../src/spec/revisions.js';

/** What part of a message a row is about. */
export type Part = 'params' | 'result' | 'notification' | 'error';

export interface Row {
  method: string;
  part: Part;
  valid: unknown;
  invalid: unknown;
  /** The pointers of the invalid example's broken members (order does not matter). */
  broken: string[];
  /** Why the invalid example is invalid, in the schema's words (for the reader of the test). */
  why: string;
  /** A label when one method has several rows. */
  label?: string;
}

export interface Table {
  /** Request methods of the revision (client and server), by hand from schema.ts. */
  requests: string[];
  notifications: string[];
  rows: Row[];
  /** Methods of other revisions: this one must not shape them. */
  absent: string[];
}

/** The JSON-RPC message a row's value belongs in. */
export function wrap(part: Part, method: string, value: unknown): { kind: MessageKind; msg: Record<string, unknown> } {
  const v = value;
  switch (part) {
    case 'params':
      return { kind: 'request', msg: { jsonrpc: '2.0', id: 1, method, ...(value === undefined ? {} : { params: v }) } };
    case 'notification':
      return { kind: 'notification', msg: { jsonrpc: '2.0', method, ...(value === undefined ? {} : { params: v }) } };
    case 'result':
      return { kind: 'response', msg: { jsonrpc: '2.0', id: 1, result: v } };
    case 'error':
      return { kind: 'error', msg: { jsonrpc: '2.0', id: 1, error: v } };
  }
}

/** The pointers a message breaks under `rev` (undefined: no shape for it). */
export function broken(rev: Revision, part: Part, method: string, value: unknown): string[] | undefined {
  const { kind, msg } = wrap(part, method, value);
  return checkMessage(rev, kind, method, msg)?.violations.map((v) => v.pointer);
}

/** Defines the table's tests for `rev`. */
export function specTable(rev: Revision, table: Table): void {
  describe(`MCP ${rev}: every method against its schema`, () => {
    for (const row of table.rows) {
      const name = `${row.part === 'notification' ? row.method : `${row.method} ${row.part}`}${row.label ? ` (${row.label})` : ''}`;
      it(`${name}: the valid example passes, the invalid one breaks ${row.broken.join(', ')} (${row.why})`, () => {
        expect(broken(rev, row.part, row.method, row.valid), 'valid example').toBeUndefined();
        expect(broken(rev, row.part, row.method, row.invalid)?.sort(), 'invalid example').toEqual([...row.broken].sort());
      });
    }

    it('has a valid and an invalid example of every request, result and notification of the revision', () => {
      const covered = (part: Part) => new Set(table.rows.filter((r) => r.part === part).map((r) => r.method));
      expect([...covered('params')].sort()).toEqual([...table.requests].sort());
      expect([...covered('result')].sort()).toEqual([...table.requests].sort());
      expect([...covered('notification')].sort()).toEqual([...table.notifications].sort());
      expect(covered('error').size).toBeGreaterThan(0);
    });

    it('shapes exactly the methods the schema defines', () => {
      const s = shapesOf(rev);
      expect(Object.keys(s.requests).sort()).toEqual([...table.requests].sort());
      expect(Object.keys(s.notifications).sort()).toEqual([...table.notifications].sort());
      for (const m of table.absent) {
        expect(broken(rev, 'params', m, 42), m).toBeUndefined();
        expect(broken(rev, 'notification', m, 42), m).toBeUndefined();
      }
    });
  });
}
