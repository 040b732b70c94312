// tsx's --tsconfig <file>: the project's tsconfig.build.json (with `paths`) instead of its tsconfig.json.
// cwd: projects/tsconfig-flag
// args: --tsconfig tsconfig.build.json main.ts
// expect: src/config.ts through the paths of tsconfig.build.json
