// rt.serve lives in a file of its own (dist/serve.cjs, with its HTTP adapter), loaded by the
// first call, so neither rt's startup nor `import { serve } from "rt"` pays for it.
import * as path from "node:path";
import type { ServeOptions, Server } from "rt-runtime/types/rt";
import type { ServeDefaults } from "./index.js";

export function lazyServe(defaults: ServeDefaults): (options: ServeOptions) => Server {
  let serve: typeof import("./index.js").serve | undefined;
  return function serveLazily(options: ServeOptions): Server {
    serve ??= (require(path.join(__dirname, "serve.cjs")) as typeof import("./index.js")).serve;
    return serve(options, defaults);
  };
}
