// Built as a file of its own (dist/debug-adapter.cjs): the adapter loads when a debug session
// starts, not with the extension.
export { discardPrelaunched, prelaunch, RtDebugSession } from "rt-debug-adapter";
