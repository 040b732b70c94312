// The "rt Secrets" tree: tracked services, each with the accounts the credential store holds for
// it. When the store cannot be reached, the view's message says why and how to fix it.
import { listNames, type SecretsError } from "rt-runtime/secrets";
import * as vscode from "vscode";
import type { TrackedServices, TrackScope } from "./tracked.js";

/** Listed to check the store when no service is tracked (an unused name: it has no accounts). */
const PROBE_SERVICE = "rt-vscode-store-check";

export type SecretsNode =
  | { readonly kind: "service"; readonly service: string; readonly scopes: readonly TrackScope[] }
  | { readonly kind: "account"; readonly service: string; readonly name: string };

export class SecretsTree implements vscode.TreeDataProvider<SecretsNode> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Set by register(): the view whose message shows a store error. */
  view: vscode.TreeView<SecretsNode> | undefined;
  private failures = new Map<string, SecretsError>();
  /** The accounts listed with the services, so expanding a service lists nothing again. */
  private listed = new Map<string, SecretsNode[] | undefined>();

  constructor(readonly tracked: TrackedServices) {}

  refresh(): void {
    this.changed.fire();
  }

  async getChildren(node?: SecretsNode): Promise<SecretsNode[]> {
    if (!node) {
      const services = this.tracked.list();
      this.failures.clear();
      // Listing every service now tells the view about a store problem before anything expands;
      // with none tracked, listing a service nobody uses checks that the store can be reached.
      const accounts = await Promise.all((services.length ? services.map(({ service }) => service) : [PROBE_SERVICE]).map((service) => this.accounts(service)));
      this.listed = new Map(services.map(({ service }, index) => [service, accounts[index]]));
      this.showProblem();
      const state = this.failures.size ? "error" : services.length ? "services" : "empty";
      await vscode.commands.executeCommand("setContext", "rt.secrets.state", state);
      return services.map(({ service, scopes }) => ({ kind: "service", service, scopes }));
    }
    if (node.kind !== "service") return [];
    const listed = this.listed.get(node.service);
    this.listed.delete(node.service);
    return listed ?? (await this.accounts(node.service)) ?? [];
  }

  getTreeItem(node: SecretsNode): vscode.TreeItem {
    if (node.kind === "service") {
      const item = new vscode.TreeItem(node.service, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `service:${node.service}`;
      item.contextValue = "service";
      item.iconPath = new vscode.ThemeIcon(this.failures.has(node.service) ? "warning" : "key");
      item.description = this.failures.has(node.service) ? "store unavailable" : node.scopes.includes("global") ? "all workspaces" : "this workspace";
      item.tooltip = `Service "${node.service}", tracked ${node.scopes.map((scope) => (scope === "global" ? "in all workspaces" : "in this workspace")).join(" and ")}`;
      return item;
    }
    const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `account:${node.service}\0${node.name}`;
    item.contextValue = "account";
    item.iconPath = new vscode.ThemeIcon("account");
    item.description = "••••••••";
    item.tooltip = `Account "${node.name}" of service "${node.service}" (value hidden: use Copy or Reveal)`;
    return item;
  }

  /** The accounts of a service, or undefined after a store error (kept for the view's message). */
  private async accounts(service: string): Promise<SecretsNode[] | undefined> {
    try {
      const names = await listNames(service);
      this.failures.delete(service);
      return names.map((name) => ({ kind: "account", service, name }));
    } catch (error) {
      this.failures.set(service, error as SecretsError);
      this.showProblem();
      return undefined;
    }
  }

  private showProblem(): void {
    if (!this.view) return;
    const [failure] = this.failures.values();
    this.view.message = failure ? `The credential store cannot be used: ${failure.message}. Then press Refresh.` : undefined;
    this.view.badge = failure ? { value: 1, tooltip: "The credential store cannot be used" } : undefined;
  }
}
