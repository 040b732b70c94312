// Deep subpath without extension: semver/functions/gt.
// expect: semver/functions/gt true false
import gt from "semver/functions/gt";
console.log("semver/functions/gt", gt("2.0.0", "1.0.0"), gt("1.0.0", "2.0.0"));
