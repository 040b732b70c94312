// A webpack config in TypeScript, as webpack-cli loads it (rechoir-webpack-config.ts).
import path from "node:path";

interface Configuration {
  mode: "development" | "production";
  entry: string;
  output: { path: string; filename: string };
}

const config: Configuration = {
  mode: "production",
  entry: "./src/index.ts",
  output: { path: path.join("/project", "dist"), filename: "bundle.js" },
};

export default config;
