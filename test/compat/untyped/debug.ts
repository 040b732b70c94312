// debug: namespaces and humanize (deterministic parts only).
// expect: debug true false 2s
import createDebug from "debug";
createDebug.enable("app:*");
console.log("debug", createDebug("app:db").enabled, createDebug("other").enabled, createDebug.humanize(1500));
