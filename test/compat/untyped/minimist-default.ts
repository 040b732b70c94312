// expect: minimist {"_":["run"],"port":8080,"v":true}
import minimist from "minimist";
console.log("minimist", JSON.stringify(minimist(["run", "--port", "8080", "-v"])));
