// expect: luxon 2024-03-10 P1D
import { DateTime, Duration } from "luxon";
console.log("luxon", DateTime.fromISO("2024-03-09", { zone: "utc" }).plus({ days: 1 }).toISODate(), Duration.fromObject({ hours: 24 }).shiftTo("days").toISO());
