// date-fns: named imports and a per-function subpath.
// expect: date-fns 2024-01-31 Feb 1st
import { format } from "date-fns";
import { addDays } from "date-fns/addDays";
const d = new Date(2024, 0, 31);
console.log("date-fns", format(d, "yyyy-MM-dd"), format(addDays(d, 1), "MMM do"));
