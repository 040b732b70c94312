// expect: moment 2024-02-29 Thursday
import moment from "moment";
const m = moment.utc("2024-02-28").add(1, "day");
console.log("moment", m.format("YYYY-MM-DD"), m.format("dddd"));
