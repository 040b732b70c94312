// Default import of TypeScript-compiled CommonJS (`exports.default = PQueue`, `__esModule`): bun and tsx give the class.
// expect: p-queue 2 done
import PQueue from "p-queue";
const queue = new PQueue({ concurrency: 1 });
Promise.all([queue.add(async () => 1), queue.add(async () => 1)]).then((results) => {
  console.log(
    "p-queue",
    results.reduce((a: number, b: number) => a + b, 0),
    "done",
  );
});
