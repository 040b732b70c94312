// The services the panel shows: remembered per workspace (workspaceState) or for every
// workspace (globalState). The credential stores cannot list services, only a service's accounts.
import type * as vscode from "vscode";

const KEY = "rt.secrets.trackedServices";
export type TrackScope = "workspace" | "global";

export class TrackedServices {
  constructor(private readonly context: vscode.ExtensionContext) {}

  /** Every tracked service, sorted, with where it is remembered. */
  list(): { service: string; scopes: TrackScope[] }[] {
    const services = new Map<string, TrackScope[]>();
    for (const scope of ["workspace", "global"] as const) {
      for (const service of this.read(scope)) services.set(service, [...(services.get(service) ?? []), scope]);
    }
    return [...services].sort(([a], [b]) => a.localeCompare(b)).map(([service, scopes]) => ({ service, scopes }));
  }

  has(service: string): boolean {
    return this.read("workspace").includes(service) || this.read("global").includes(service);
  }

  async track(service: string, scope: TrackScope): Promise<void> {
    const services = this.read(scope);
    if (!services.includes(service)) await this.memento(scope).update(KEY, [...services, service]);
  }

  async untrack(service: string): Promise<void> {
    for (const scope of ["workspace", "global"] as const) {
      await this.memento(scope).update(
        KEY,
        this.read(scope).filter((tracked) => tracked !== service),
      );
    }
  }

  private read(scope: TrackScope): string[] {
    const value = this.memento(scope).get<unknown>(KEY, []);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  }

  private memento(scope: TrackScope): vscode.Memento {
    return scope === "workspace" ? this.context.workspaceState : this.context.globalState;
  }
}
