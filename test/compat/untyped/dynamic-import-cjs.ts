// Named members of a CommonJS package through dynamic import(), as code that lazy-loads lodash does.
// expect: dynamic import [[1],[2]] true
import("lodash").then(({ chunk, default: _ }) => {
  console.log("dynamic import", JSON.stringify(chunk([1, 2], 1)), _.chunk === chunk);
});
