// expect: yargs rt 3 true
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
const argv = yargs(hideBin(["node", "script", "--name", "rt", "-n", "3", "--verbose"]))
  .option("n", { type: "number" })
  .parseSync();
console.log("yargs", argv.name, argv.n, argv.verbose);
