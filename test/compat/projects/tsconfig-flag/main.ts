import { where } from "@app/config";
console.log(where);
