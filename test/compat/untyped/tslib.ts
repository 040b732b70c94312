// expect: tslib {"a":1,"b":2}
import { __assign } from "tslib";
console.log("tslib", JSON.stringify(__assign({ a: 1 }, { b: 2 })));
