export const where = "src/config.ts through the paths of tsconfig.build.json";
