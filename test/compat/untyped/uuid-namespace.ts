// expect: uuid 9342d47a-1bab-5709-9869-c840b2eac501 true 5
import * as uuid from "uuid";
const id = uuid.v5("hello", uuid.v5.DNS);
console.log("uuid", id, uuid.validate(id), uuid.version(id));
