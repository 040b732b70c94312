// Inside node_modules an extensionless entry with both index.js and index.ts (util.js and
// util.ts) loads the JavaScript: a published package's output, not the sources it ships.
// cwd: projects/node-modules-index-js
// args: main.ts
// expect: index.js lib/index.js util.js
