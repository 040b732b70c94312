// expect: glob a.txt,b.md,nested/c.txt
import { globSync } from "glob";
console.log("glob", globSync("**/*.{txt,md}", { cwd: "data", posix: true }).sort().join(","));
