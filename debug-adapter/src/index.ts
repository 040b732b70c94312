// rt-debug-adapter: the Debug Adapter Protocol over rt's inspector.
export { RtDebugSession, type RtDebugSessionOptions } from "./dap/session.js";
export { discardPrelaunched, prelaunch } from "./targets/prelaunch.js";
export { DEBUG_TYPE, type AttachArguments, type LaunchArguments } from "./configuration.js";
export { lookUpOnPath } from "./targets/path-lookup.js";
