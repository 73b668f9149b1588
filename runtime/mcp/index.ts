// Public API of the MCP server: build a server over a Session, serve it over stdio or Streamable HTTP.
export { createMcpServer, toCallToolResult, toolListing, SERVER_NAME, SERVER_VERSION } from "./server.js";
export type { CreateMcpServerOptions, McpToolListing } from "./server.js";
export { serveStdio } from "./stdio.js";
export type { StdioServing } from "./stdio.js";
export { serveHttp, parseListenAddress, MCP_PATH } from "./http.js";
export type { HttpServing } from "./http.js";
export { defaultWorkspace, prepareDefaultWorkspace } from "./default-workspace.js";
