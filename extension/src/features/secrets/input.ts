// What the panel's input boxes accept (their validateInput): the names rt.secrets accepts, by
// its own check, and no empty value, as `rt secrets set` stores none without --allow-empty.
// Free of the vscode module, so the rules are tested as units too.
import { checkPart } from "rt-runtime/secrets";

/** For a service or name: the message rt.secrets would refuse it with, or undefined. */
export function partProblem(label: "service" | "name"): (text: string) => string | undefined {
  return (text) => {
    try {
      checkPart(label, text);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
}

/** Enter on an empty box is an accident far more often than a choice: it would replace the secret with nothing. */
export const EMPTY_VALUE =
  "Type the value: an empty value is not stored. To remove the secret, use Delete Secret; to store an empty value on purpose, use rt secrets set --allow-empty";

/** For a value typed in the box. */
export function valueProblem(text: string): string | undefined {
  return text === "" ? EMPTY_VALUE : undefined;
}
