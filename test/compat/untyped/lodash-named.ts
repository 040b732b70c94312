// Named imports from lodash's CommonJS bundle (Node's lexer sees no names in it).
// expect: lodash [[1,2],[3]] function
import { chunk, debounce } from "lodash";
console.log("lodash", JSON.stringify(chunk([1, 2, 3], 2)), typeof debounce);
