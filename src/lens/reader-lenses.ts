/**
 * The lenses readers apply by default (check, stats; every reader once they share one wiring): the
 * security lens today. One list, so a new lens is registered once.
 */
import type { LensKind } from './lens.js';
import { SECURITY_LENS } from './security/security-lens.js';

/** Every reader's lenses, in the order their notes are appended. */
export const READER_LENSES: readonly LensKind[] = [SECURITY_LENS];
