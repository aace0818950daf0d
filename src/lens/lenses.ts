/**
 * The lenses every reader runs by default, and the note codes they can add (beside the analysis' codes
 * of src/session/findings.ts: docs/log-format.md lists both, check's rules cover both). Readers open a
 * fresh stage per pass over a log with `lensStage()`; tests pass their own kinds.
 */
import { LensStage } from './apply-lenses.js';
import type { LensKind } from './lens.js';
import { SECURITY_LENS } from './security/security-lens.js';
import { specLens } from './spec-lens.js';

/** Every lens readers run, in the order their notes follow the analysis' own. */
export const LENS_KINDS: readonly LensKind[] = [specLens, SECURITY_LENS];

/** Every note code a lens can add, with its one-line summary. */
export const LENS_NOTE_CODES: Readonly<Record<string, string>> = Object.fromEntries(LENS_KINDS.flatMap((k) => Object.entries(k.codes)));

/** The list of lens codes, for docs and tests. */
export const LENS_NOTE_CODE_LIST: readonly string[] = Object.keys(LENS_NOTE_CODES);

/** A fresh stage of `kinds` (default: every lens) for one pass over a log. */
export function lensStage(kinds: readonly LensKind[] = LENS_KINDS): LensStage {
  return new LensStage(kinds);
}
