// The networking flags that act inside the program's process: fetch and http defaults and
// preconnects. Each loads and patches nothing unless given. (--use-*-ca and a non-default
// --max-http-header-size are Node options read at start: see process/startup-options.ts.)
// The modules behind them are required when a flag is given: they load node:net and node:tls.
import { UsageError } from "../errors.js";
import type { FlagValues } from "../flags/parse.js";

export function applyNetworkFlags(values: FlagValues): void {
  const order = values["dns-result-order"];
  if (order !== undefined) (require("node:dns") as typeof import("node:dns")).setDefaultResultOrder(order);
  const userAgent = values["user-agent"];
  if (userAgent !== undefined) (require("./user-agent.js") as typeof import("./user-agent.js")).setDefaultUserAgent(checkedUserAgent(userAgent));
  const preconnects = values["fetch-preconnect"];
  if (preconnects?.length) (require("./preconnect.js") as typeof import("./preconnect.js")).preconnect(preconnects.map(checkedOrigin));
}

/** A header value: visible ASCII and spaces/tabs inside, as HTTP allows. */
function checkedUserAgent(value: string): string {
  if (value.trim() === "" || !/^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/.test(value)) {
    throw new UsageError(`invalid value ${JSON.stringify(value)} for --user-agent: expected visible ASCII text, e.g. --user-agent "my-cli/1.0"`);
  }
  return value;
}

function checkedOrigin(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`invalid URL "${value}" for --fetch-preconnect: expected an http:// or https:// URL, e.g. https://api.example.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`invalid URL "${value}" for --fetch-preconnect: only http:// and https:// URLs can be preconnected`);
  }
  return url;
}
