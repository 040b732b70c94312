// The "rt Secrets" side panel: services → accounts, with add, copy, reveal, update, delete,
// refresh, track and untrack. Values go through the runtime's own credential module (rt-runtime/secrets,
// the implementation behind rt.secrets) and are never logged, shown unasked or written to a file.
//
// Every action also takes its answers as a second argument ({ service, name, value, allowEmpty,
// confirmed, scope }) instead of asking, for other extensions and for the tests that run inside
// VS Code. An empty value is stored only with allowEmpty: true; typed in the box, never.
import { secrets } from "rt-runtime/secrets";
import * as vscode from "vscode";
import { COMMANDS, SECRETS_VIEW } from "../../contributions.js";
import { output } from "../../output.js";
import { EMPTY_VALUE, partProblem, valueProblem } from "./input.js";
import { TrackedServices, type TrackScope } from "./tracked.js";
import { SecretsTree, type SecretsNode } from "./tree.js";

export interface SecretAnswers {
  readonly service?: string;
  readonly name?: string;
  readonly value?: string;
  /** Store an empty value (answers.value ""): the choice `rt secrets set --allow-empty` makes. */
  readonly allowEmpty?: boolean;
  readonly confirmed?: boolean;
  readonly scope?: TrackScope;
}

export function register(context: vscode.ExtensionContext): void {
  const tree = new SecretsTree(new TrackedServices(context));
  const view = vscode.window.createTreeView(SECRETS_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  tree.view = view;
  const command = (id: string, action: (tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (node?: SecretsNode, answers: SecretAnswers = {}) => {
      try {
        return await action(tree, node, answers);
      } catch (error) {
        // Store errors carry what to do; they never contain a value.
        const message = error instanceof Error ? error.message : String(error);
        output().error(`${id}: ${message}`);
        void vscode.window.showErrorMessage(`rt Secrets: ${message}`);
        tree.refresh();
        return undefined;
      }
    });
  context.subscriptions.push(
    view,
    command(COMMANDS.secretsAdd.id, add),
    command(COMMANDS.secretsCopy.id, copy),
    command(COMMANDS.secretsReveal.id, reveal),
    command(COMMANDS.secretsUpdate.id, update),
    command(COMMANDS.secretsDelete.id, remove),
    command(COMMANDS.secretsRefresh.id, async (tree) => tree.refresh()),
    command(COMMANDS.secretsTrack.id, track),
    command(COMMANDS.secretsUntrack.id, untrack),
  );
}

async function ask(answer: string | undefined, options: vscode.InputBoxOptions): Promise<string | undefined> {
  return answer ?? vscode.window.showInputBox({ ignoreFocusOut: true, ...options });
}

/** The value, typed masked; never "" unless the answers ask for it explicitly. */
async function askValue(answers: SecretAnswers, title: string, prompt: string): Promise<string | undefined> {
  if (answers.value === "" && answers.allowEmpty !== true) throw new Error(`${EMPTY_VALUE} (or pass allowEmpty: true)`);
  return ask(answers.value, { title, prompt, password: true, validateInput: valueProblem });
}

async function confirm(answer: boolean | undefined, message: string, action: string): Promise<boolean> {
  if (answer !== undefined) return answer;
  return (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action;
}

/** Stores a new secret (the value is typed masked) and tracks its service in this workspace. */
async function add(tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  const service =
    node?.service ??
    (await ask(answers.service, {
      title: "Add Secret (1/3)",
      prompt: "Service (the app or tool the secret belongs to)",
      placeHolder: "my-cli",
      validateInput: partProblem("service"),
    }));
  if (!service) return false;
  const name = await ask(answers.name, {
    title: "Add Secret (2/3)",
    prompt: `Account name for service "${service}"`,
    placeHolder: "alice",
    validateInput: partProblem("name"),
  });
  if (!name) return false;
  const value = await askValue(answers, "Add Secret (3/3)", `Value for ${name} (${service})`);
  if (value === undefined) return false;
  await secrets.set({ service, name, value });
  if (!tree.tracked.has(service)) await tree.tracked.track(service, answers.scope ?? "workspace");
  tree.refresh();
  void vscode.window.showInformationMessage(`rt Secrets: stored the secret of ${name} for service "${service}".`);
  return true;
}

async function secretOf(node: SecretsNode | undefined): Promise<{ service: string; name: string; value: string } | undefined> {
  if (node?.kind !== "account") return undefined;
  const value = await secrets.get({ service: node.service, name: node.name });
  if (value === null) {
    void vscode.window.showWarningMessage(`rt Secrets: ${node.name} of service "${node.service}" has no stored value any more.`);
    return undefined;
  }
  return { service: node.service, name: node.name, value };
}

/** How long a copied value stays on the clipboard, as password managers keep it. */
const CLIPBOARD_MS = 45_000;
/** The value last copied, until it is cleared from the clipboard. */
let copied: { readonly service: string; readonly name: string; readonly value: string; readonly timer: NodeJS.Timeout } | undefined;

/** Copies the value to the clipboard without showing it. */
async function copy(_tree: SecretsTree, node: SecretsNode | undefined): Promise<boolean> {
  const secret = await secretOf(node);
  if (!secret) return false;
  await vscode.env.clipboard.writeText(secret.value);
  if (copied) clearTimeout(copied.timer);
  copied = { ...secret, timer: setTimeout(() => void clearCopied(), CLIPBOARD_MS) };
  void vscode.window.showInformationMessage(
    `rt Secrets: copied the value of ${secret.name} (${secret.service}) to the clipboard for ${CLIPBOARD_MS / 1000} s.`,
  );
  return true;
}

/** Empties the clipboard if it still holds the copied value (of `of`, when given); what the user copied since stays. */
async function clearCopied(of?: { service: string; name: string }): Promise<void> {
  const value = copied;
  if (!value || (of && (of.service !== value.service || of.name !== value.name))) return;
  clearTimeout(value.timer);
  copied = undefined;
  if ((await vscode.env.clipboard.readText()) === value.value) await vscode.env.clipboard.writeText("");
}

/** Shows the value in a modal dialog, after asking. */
async function reveal(_tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  if (node?.kind !== "account") return false;
  if (!(await confirm(answers.confirmed, `Show the value of ${node.name} (${node.service}) on screen?`, "Reveal"))) return false;
  const secret = await secretOf(node);
  if (!secret) return false;
  await vscode.window.showInformationMessage(`${secret.name} (${secret.service})`, { modal: true, detail: secret.value });
  return true;
}

async function update(tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  if (node?.kind !== "account") return false;
  const value = await askValue(answers, "Update Secret", `New value for ${node.name} (${node.service})`);
  if (value === undefined) return false;
  await secrets.set({ service: node.service, name: node.name, value });
  tree.refresh();
  void vscode.window.showInformationMessage(`rt Secrets: updated the secret of ${node.name} for service "${node.service}".`);
  return true;
}

async function remove(tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  if (node?.kind !== "account") return false;
  if (!(await confirm(answers.confirmed, `Delete the secret of ${node.name} for service "${node.service}" from the credential store?`, "Delete"))) return false;
  const deleted = await secrets.delete({ service: node.service, name: node.name });
  await clearCopied(node);
  tree.refresh();
  return deleted;
}

async function track(tree: SecretsTree, _node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  const service = await ask(answers.service, {
    title: "Track a Service",
    prompt: "Service whose accounts the panel lists",
    placeHolder: "my-cli",
    validateInput: partProblem("service"),
  });
  if (!service) return false;
  const scope =
    answers.scope ??
    (
      await vscode.window.showQuickPick(
        [
          { label: "This workspace", scope: "workspace" as const },
          { label: "All workspaces", scope: "global" as const },
        ],
        { title: `Track "${service}" in` },
      )
    )?.scope;
  if (!scope) return false;
  await tree.tracked.track(service, scope);
  tree.refresh();
  return true;
}

async function untrack(tree: SecretsTree, node: SecretsNode | undefined, answers: SecretAnswers): Promise<boolean> {
  const service = node?.kind === "service" ? node.service : answers.service;
  if (!service) return false;
  await tree.tracked.untrack(service);
  tree.refresh();
  return true;
}
