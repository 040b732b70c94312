// An ESM-only package imported from a package without "type".
// expect: p-limit 1,2,3 max 1
import pLimit from "p-limit";
const limit = pLimit(1);
let active = 0,
  max = 0;
const job = (n: number) =>
  limit(async () => {
    active++;
    max = Math.max(max, active);
    await new Promise((r) => setTimeout(r, 5));
    active--;
    return n;
  });
console.log("p-limit", (await Promise.all([1, 2, 3].map(job))).join(","), "max", max);
