// dayjs with a plugin subpath without extension (no "exports" in dayjs).
// expect: dayjs 2024-03-01T12:00:00Z true
import dayjs from "dayjs";
import utc from "dayjs/plugin/utc";
dayjs.extend(utc);
const d = dayjs.utc("2024-03-01T12:00:00Z");
console.log("dayjs", d.format("YYYY-MM-DDTHH:mm:ss[Z]"), d.isUTC());
