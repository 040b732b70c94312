// Named imports from CommonJS semver.
// expect: semver true 1.2.3 ["1.0.0","1.9.0","1.10.0"]
import { satisfies, coerce, sort } from "semver";
console.log("semver", satisfies("1.2.3", "~1.2"), coerce("v1.2.3-beta")?.version, JSON.stringify(sort(["1.10.0", "1.0.0", "1.9.0"])));
