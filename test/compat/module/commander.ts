// expect: commander {"port":"8080","debug":true} build
import { Command } from "commander";
const program = new Command().option("-p, --port <port>").option("-d, --debug").argument("<task>");
program.parse(["node", "cli", "-p", "8080", "-d", "build"]);
console.log("commander", JSON.stringify(program.opts()), program.args[0]);
