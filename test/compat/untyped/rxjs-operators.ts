// rxjs through its operators subpath.
// expect: rxjs 2,4,6
import { from } from "rxjs";
import { map, toArray } from "rxjs/operators";
from([1, 2, 3])
  .pipe(
    map((n) => n * 2),
    toArray(),
  )
  .subscribe((all) => console.log("rxjs", all.join(",")));
