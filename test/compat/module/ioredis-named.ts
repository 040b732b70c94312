// ioredis named import (Redis class) from ESM.
// expect: ioredis wait true
import { Redis } from "ioredis";
const r = new Redis({ lazyConnect: true });
console.log("ioredis", r.status, typeof r.get === "function");
r.disconnect();
