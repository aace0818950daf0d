/**
 * The shapes of each revision, built on first use (a reader that meets one revision builds only that
 * one's schemas). Pure.
 */
import { shapes20241105 } from './2024-11-05.js';
import { shapes20250326 } from './2025-03-26.js';
import { shapes20250618 } from './2025-06-18.js';
import { shapes20251125 } from './2025-11-25.js';
import { shapes20260728 } from './2026-07-28.js';
import type { Revision, RevisionShapes } from './revision.js';

const BUILDERS: Record<Revision, () => RevisionShapes> = {
  '2024-11-05': shapes20241105,
  '2025-03-26': shapes20250326,
  '2025-06-18': shapes20250618,
  '2025-11-25': shapes20251125,
  '2026-07-28': shapes20260728,
};

const built = new Map<Revision, RevisionShapes>();

/** The shapes of `rev`. */
export function shapesOf(rev: Revision): RevisionShapes {
  let s = built.get(rev);
  if (!s) {
    s = BUILDERS[rev]();
    built.set(rev, s);
  }
  return s;
}
