import { thing } from "ns:thing";
console.log(thing);
