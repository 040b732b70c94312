// expect: rxjs 10,30
import { of, map, filter, toArray, lastValueFrom } from "rxjs";
console.log(
  "rxjs",
  (
    await lastValueFrom(
      of(1, 2, 3).pipe(
        filter((n) => n % 2 === 1),
        map((n) => n * 10),
        toArray(),
      ),
    )
  ).join(","),
);
