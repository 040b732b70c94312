// fast-glob's default export (CommonJS) used on a small directory.
// expect: fast-glob a.txt,nested/c.txt
import fg from "fast-glob";
console.log("fast-glob", fg.sync("**/*.txt", { cwd: "data" }).sort().join(","));
