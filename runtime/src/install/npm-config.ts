// The registry settings npm itself would use, so auto-install fetches from the same registry
// with the same credentials: the user's .npmrc, then the project's, then `npm_config_*`
// environment variables (what `npm` and npm scripts set). Keys such as `registry`,
// `@scope:registry` and `//host/:_authToken` are passed to pacote as they are.
import { readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ini from "ini";

export function npmOptions(cwd: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const userConfig = env.npm_config_userconfig || env.NPM_CONFIG_USERCONFIG || path.join(os.homedir(), ".npmrc");
  for (const file of [userConfig, path.join(projectRoot(cwd), ".npmrc")]) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const [key, value] of Object.entries(ini.parse(text))) set(options, expand(key, env), typeof value === "string" ? expand(value, env) : value);
  }
  for (const [key, value] of Object.entries(env)) {
    const match = /^npm_config_(.+)$/i.exec(key);
    if (match && value) set(options, match[1]!.toLowerCase().replace(/_/g, "-"), value);
  }
  return options;
}

/**
 * Registry-scoped keys (`@scope:registry`, `//host/:_authToken`) go to pacote as written; plain
 * ones (`fetch-retries`) become its camelCase options, with npm's true/false/number values.
 */
function set(options: Record<string, unknown>, key: string, value: unknown): void {
  if (key.includes(":") || key.startsWith("//")) {
    options[key] = value;
    return;
  }
  const typed = value === "true" ? true : value === "false" ? false : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  options[key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())] = typed;
}

/** npm's project: the nearest directory with a package.json (else the working directory). */
function projectRoot(cwd: string): string {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    try {
      readFileSync(path.join(dir, "package.json"));
      return dir;
    } catch {
      if (path.dirname(dir) === dir) return cwd;
    }
  }
}

/** `${NAME}` in .npmrc names an environment variable, as in npm. */
function expand(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => env[name] ?? "");
}
