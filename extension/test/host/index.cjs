// extensionTestsPath: VS Code's extension host (inside code-server) calls run(); mocha runs the
// *.test.cjs files here against the installed extension. Each test's outcome and the measured
// figures go to the JSON file named by RT_E2E_RESULTS, which the node test runner reads.
const fs = require("node:fs");
const path = require("node:path");
const Mocha = require("mocha");

exports.run = function run() {
  const mocha = new Mocha({ ui: "tdd", color: false, timeout: 60_000, reporter: "spec" });
  const only = process.env.RT_E2E_GREP;
  if (only) mocha.grep(only);
  // RT_E2E_SUITE=bench: bench.cjs alone (bench/vscode.mjs), else every *.test.cjs.
  const suffix = process.env.RT_E2E_SUITE === "bench" ? "bench.cjs" : ".test.cjs";
  for (const file of fs.readdirSync(__dirname).sort()) if (file.endsWith(suffix)) mocha.addFile(path.join(__dirname, file));
  globalThis.rtMetrics = {};
  const tests = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      fs.writeFileSync(process.env.RT_E2E_RESULTS, JSON.stringify({ tests, metrics: globalThis.rtMetrics }, null, 2));
      failures ? reject(new Error(`${failures} test(s) failed`)) : resolve();
    });
    const record = (state) => (test, error) =>
      tests.push({ title: test.fullTitle(), state, duration: test.duration, error: error ? String(error.stack || error.message || error) : undefined });
    runner.on("pass", record("passed"));
    runner.on("fail", record("failed"));
    runner.on("pending", record("skipped"));
  });
};
