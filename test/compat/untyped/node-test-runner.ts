// `--test` on a directory of *.test.ts files (no file arguments): Node's test runner with the
// runtime's loader, as `tsx --test` (an enum, an extensionless import); names.mjs prints the results.
// cwd: projects/test-runner
// args: --test --test-reporter=./names.mjs
// expect: pass greets by name
// expect: pass sign of a negative number
// expect: pass sign of zero
