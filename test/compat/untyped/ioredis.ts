// ioredis: construct a client without connecting (no network), read its state.
// expect: ioredis wait 6390 end
import Redis from "ioredis";
const redis = new Redis({ port: 6390, lazyConnect: true });
console.log("ioredis", redis.status, redis.options.port, (redis.disconnect(), redis.status));
