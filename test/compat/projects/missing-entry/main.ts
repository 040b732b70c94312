import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const here = process.cwd();
const show = (how: string, error: unknown) => {
  const { code, message } = error as { code: string; message: string };
  console.log(how, code, message.split("\n")[0].replaceAll(here, "."));
};
for (const name of ["main-missing", "exports-missing"]) {
  await import(name).catch((error: unknown) => show("import", error));
  try {
    require(name);
  } catch (error) {
    show("require", error);
  }
}
