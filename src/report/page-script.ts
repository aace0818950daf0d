/**
 * The report's script, inlined into the page: the typed module src/report/page/report-page.ts bundled
 * by esbuild at build time (scripts/build-page.mjs writes src/generated/page-bundles.ts).
 */
export { REPORT_PAGE_SCRIPT as PAGE_SCRIPT } from '../generated/page-bundles.js';
