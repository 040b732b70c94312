// svelte's compiler (whose sources name aria-query in `/** @import … */` comments beside the real
// import) compiles a component for the server; svelte/server renders it.
// expect: <h1>Hello rt!</h1> <p>2 items</p>
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compile } from "svelte/compiler";
import { render } from "svelte/server";

const component = `<script>let { name, items } = $props();</script><h1>Hello {name}!</h1> <p>{items.length} items</p>`;
const { js } = compile(component, { generate: "server", filename: "Hello.svelte" });
// The compiled module imports svelte/internal/server: point it at this project's copy.
const internal = pathToFileURL(createRequire(path.resolve("package.json")).resolve("svelte/internal/server")).href;
const dir = mkdtempSync(path.join(tmpdir(), "compat-svelte-"));
const file = path.join(dir, "Hello.mjs");
writeFileSync(file, js.code.replaceAll("'svelte/internal/server'", JSON.stringify(internal)));
// No top-level await: tsx compiles a file of a package without "type" to CommonJS.
import(pathToFileURL(file).href)
  .then(({ default: Hello }) => console.log(render(Hello, { props: { name: "rt", items: [1, 2] } }).body.replace(/<!--.*?-->/g, "")))
  .finally(() => rmSync(dir, { recursive: true, force: true }));
