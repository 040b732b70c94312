// dayjs plugin through the explicit .js subpath (what Node's strict ESM needs).
// expect: dayjs 2024-03-01 10:00 relative: true
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc.js";
import relativeTime from "dayjs/plugin/relativeTime.js";
dayjs.extend(utc);
dayjs.extend(relativeTime);
console.log("dayjs", dayjs.utc("2024-03-01T10:00:00Z").format("YYYY-MM-DD HH:mm"), "relative:", typeof dayjs().fromNow === "function");
