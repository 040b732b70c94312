export const thing = "ns:thing is ns/thing.ts";
