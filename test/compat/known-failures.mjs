// The ONE list of compatibility cases rt fails today, each with the issue-18 item it belongs to
// and rt's error, e.g. "untyped/lodash-named.ts": "#1 CJS named exports: Named export 'chunk' not found".
// test/compat.test.mjs marks these `todo` (run, reported, not failing `npm test`); `npm run compat`
// names the ones that pass now. Delete an entry when the loader fix lands.
// Empty since the evaluation-order fix (2026-11-26): rt passes all 85 cases.
export const KNOWN_FAILURES = {};
