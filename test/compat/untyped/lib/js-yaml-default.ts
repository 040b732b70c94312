// A default import of js-yaml, whose ES module build has no default export (js-yaml-default-import.ts).
import yaml from "js-yaml";

export const dumped = yaml.dump({ b: 2 }).trim();
