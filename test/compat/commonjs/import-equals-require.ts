// A "type": "commonjs" project written in TypeScript's CommonJS style, `import x = require()` and
// `export function`: an explicit type decides, so it runs as CommonJS, as tsc and tsx compile it
// (`module`, `require.main` and `exports` are there).
// expect: import-equals-require.ts: commonjs, main true
// expect: format.ts: commonjs 2 ["VERSION","describe"]
// expect: 3 ["x"]
import minimist = require("minimist");
import format = require("./lib/format");

export function main(): void {
  console.log(`${format.describe(__filename)}, main ${require.main === module}`);
  console.log(format.describe(require.resolve("./lib/format")), format.VERSION, JSON.stringify(Object.keys(format)));
  const argv = minimist(["-n", "3", "x"]);
  console.log(argv.n, JSON.stringify(argv._));
}

main();
