// expect: jsonwebtoken eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiJ9.79CVgMIG_JB921dVUeJDWNJubJojFodH3-XtC_1C408 42
import { sign, verify } from "jsonwebtoken";
const token = sign({ sub: "42" }, "secret", { noTimestamp: true });
console.log("jsonwebtoken", token, (verify(token, "secret") as { sub: string }).sub);
