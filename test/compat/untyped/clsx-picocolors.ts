// expect: clsx btn active "\u001b[1mbold\u001b[22m"
import clsx from "clsx";
import pc from "picocolors";
console.log("clsx", clsx("btn", { active: true, hidden: false }), JSON.stringify(pc.createColors(true).bold("bold")));
