// expect: uuid 9342d47a-1bab-5709-9869-c840b2eac501 nanoid 12 true
import { v5 as uuidv5 } from "uuid";
import { nanoid, customAlphabet } from "nanoid";
const id = customAlphabet("abc", 12)();
console.log("uuid", uuidv5("hello", uuidv5.DNS), "nanoid", id.length, /^[abc]+$/.test(id) && nanoid().length === 21);
