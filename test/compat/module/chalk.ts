// expect: chalk "\u001b[1m\u001b[32mok\u001b[39m\u001b[22m"
import { Chalk } from "chalk";
const chalk = new Chalk({ level: 1 });
console.log("chalk", JSON.stringify(chalk.bold.green("ok")));
