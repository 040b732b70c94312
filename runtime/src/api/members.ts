// The names the "rt" module exports. Kept free of imports: the build reads it to annotate
// the CommonJS "rt" module so `import { name } from "rt"` sees named exports.
export const API_MEMBERS = ["version", "main", "inspect", "secrets", "serve", "sql", "redis", "gc"] as const;
export type ApiMember = (typeof API_MEMBERS)[number];
