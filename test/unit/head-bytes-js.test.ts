/**
 * Where WebAssembly is unavailable every head is written in JavaScript: the template cases of
 * head-bytes.test.ts again, with the WebAssembly writer taken away.
 */
import { describe, vi } from 'vitest';
import { templateHeadCases } from '../helpers/head-records.js';

vi.mock('../../src/log/head-wasm.js', () => ({ HEAD_SLOTS: 8, loadHeadWriter: () => null }));

describe('record heads from templates, without WebAssembly', () => templateHeadCases());
