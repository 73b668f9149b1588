// Public API of the contracts layer: what every other folder shares; imports only errors.ts and node:, so it costs nothing to load.

export { BUILD_ID } from "./build.js";
export { closestName, nearestNames } from "./did-you-mean.js";
export { insideRelative, isInside, shownBelow } from "./inside.js";
export { nativeModule } from "./native-module.js";
export { bundledPackRoot, packageRoot, packageVersion } from "./pack-root.js";
export type { WorkspacePaths } from "./paths.js";
export { workspacePaths } from "./paths.js";
export { readSmallFile, refusalReason } from "./read-small.js";
export type { ToolName, ToolResult } from "./tool.js";
export { TOOL_NAMES } from "./tool.js";
