// Named imports from lodash's CommonJS bundle in a "type": "module" package.
// expect: lodash 3 ["a","b"] true
import _, { uniq, debounce } from "lodash";
console.log("lodash", _.sum([1, 2]), JSON.stringify(uniq(["a", "b", "a"])), _.debounce === debounce);
