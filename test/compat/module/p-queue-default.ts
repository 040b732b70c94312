// Default import of TypeScript-compiled CommonJS (exports.default, __esModule) in a "type": "module" package.
// expect: p-queue 3
import PQueue from "p-queue";
const queue = new PQueue({ concurrency: 2 });
Promise.all([1, 2].map((n) => queue.add(async () => n))).then((r) =>
  console.log(
    "p-queue",
    r.reduce((a, b) => a + b, 0),
  ),
);
