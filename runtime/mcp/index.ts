// Public API of the MCP server: build a server over a Session, serve it over stdio or Streamable HTTP.
export { defaultWorkspace, EXAMPLE_TARGET, prepareDefaultWorkspace } from "./default-workspace.js";
export type { HttpServing } from "./http.js";
export { MCP_PATH, serveHttp } from "./http.js";
export type { HttpAuthOptions } from "./http-guard.js";
export { checkBindPolicy, readTokenFile } from "./http-guard.js";
export { parseListenAddress } from "./listen-address.js";
export type { CreateMcpServerOptions, McpToolListing } from "./server.js";
export { createMcpServer, SERVER_NAME, SERVER_VERSION, toCallToolResult, toolListing } from "./server.js";
export type { StdioServing } from "./stdio.js";
export { serveStdio } from "./stdio.js";
