// The ONE list of compatibility cases rt fails today, each with the issue-18 item it belongs to
// and rt's error, e.g. "untyped/lodash-named.ts": "#1 CJS named exports: Named export 'chunk' not found".
// test/compat.test.mjs marks these `todo` (run, reported, not failing `npm test`); `npm run compat`
// names the ones that pass now. Delete an entry when the loader fix lands.
// After main's resolver and interop merges (2026-11-26) only the evaluation-order cases remain.
export const KNOWN_FAILURES = {
  // #1's facade runs a CommonJS package while the importer links, before the ES modules imported above it
  "module/evaluation-order-default.ts":
    "#1 facade evaluation order: debug read process.env.DEBUG before ./lib/set-debug-env.ts ran (node, tsx: true; rt, bun: false)",
  "untyped/evaluation-order.ts": "#1 facade evaluation order: debug read process.env.DEBUG before ./lib/set-debug-env.ts ran (tsx: true; rt and bun: false)",
};
