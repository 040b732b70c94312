// Namespace import of lodash: its members are the namespace's names.
// expect: lodash ns [[1,2]] true
import * as _ from "lodash";
console.log("lodash ns", JSON.stringify(_.chunk([1, 2], 2)), typeof _.debounce === "function");
