// expect: ramda [3,5] 9
import * as R from "ramda";
console.log("ramda", JSON.stringify(R.filter((n: number) => n > 2, [1, 3, 5])), R.pipe(R.add(4), R.add(5))(0));
