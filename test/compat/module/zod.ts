// expect: zod {"name":"rt","tags":[]} false
import { z } from "zod";
const Schema = z.object({ name: z.string(), tags: z.array(z.string()).default([]) });
console.log("zod", JSON.stringify(Schema.parse({ name: "rt" })), z.email().safeParse("nope").success);
