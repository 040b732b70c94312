// yaml and js-yaml side by side.
// expect: yaml {"a":[1,2]} b: x
import YAML from "yaml";
import { dump } from "js-yaml";
console.log("yaml", JSON.stringify(YAML.parse("a:\n  - 1\n  - 2\n")), dump({ b: "x" }).trim());
