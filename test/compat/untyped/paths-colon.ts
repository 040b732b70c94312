// A tsconfig `paths` alias with a colon ("ns:*") maps before the specifier is read as a URL.
// cwd: projects/paths-colon
// args: main.ts
// expect: ns:thing is ns/thing.ts
