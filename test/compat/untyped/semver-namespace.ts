// Namespace import of a CommonJS package.
// expect: semver 2.0.0 true 1.3.0
import * as semver from "semver";
console.log("semver", semver.inc("1.9.9", "major"), semver.gt("1.10.0", "1.9.0"), semver.minVersion(">=1.3.0 <2")?.version);
