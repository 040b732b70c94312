export { sign, verify } from "jsonwebtoken";
