// `skillgate call` on a workspace with a server record: the call goes to that server's socket, never to local state.

import type { ToolResult } from "../contracts/index.js";
import { workspacePaths } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import type { OpenSessionOptions } from "../tools/index.js";
import { refuseForeignState } from "./mode.js";
import { readServerRecord } from "./record.js";

/** The tool result from the workspace's socket server, or null when no server record exists (call locally). */
export async function callThroughServer(
  options: Pick<OpenSessionOptions, "workspace" | "configFile" | "argvFlags" | "flags">,
  tool: string,
  args: unknown,
): Promise<ToolResult | null> {
  const record = await readServerRecord(options.workspace);
  if (!record) {
    await refuseForeignState(workspacePaths(options.workspace), process.getuid?.() ?? -1);
    return null;
  }
  const skill = options.flags ?? {};
  const local = [
    ...(options.configFile !== undefined ? ["--config"] : []),
    ...(options.argvFlags ?? []).filter((flag) => flag.startsWith("--")),
    ...(skill.useSkill === undefined ? [] : [skill.useSkill ? "--use-skill" : "--no-use-skill"]),
    ...((skill.extraSkillPaths ?? []).length > 0 ? ["--extra-skill-path"] : []),
  ];
  if (local.length > 0) {
    throw new SkillgateError(
      "FLAG_CONFLICT",
      `workspace ${record.workspace} is served by ${record.mode === "authority" ? "its authority" : "a socket server"} (${record.socket}), whose own config and skill flags apply; drop ${[...new Set(local)].join(", ")} from this call`,
      { socket: record.socket },
    );
  }
  // The MCP client loads only when a server is there: a local call never pays for it.
  const { callOverSocket } = await import("./client.js");
  return callOverSocket(record.socket, record, tool, args);
}

/** `skillgate status` of a served workspace: the Status tool's answer, with who serves it; null when not served. */
export async function statusThroughServer(
  options: Pick<OpenSessionOptions, "workspace" | "configFile" | "argvFlags" | "flags">,
): Promise<{ text: string; json: Record<string, unknown> } | null> {
  const record = await readServerRecord(options.workspace);
  if (!record) {
    await refuseForeignState(workspacePaths(options.workspace), process.getuid?.() ?? -1);
    return null;
  }
  const result = await callThroughServer(options, "Status", {});
  if (!result) return null;
  const by =
    record.mode === "authority"
      ? `its authority (user ${record.user})`
      : `a socket server (user ${record.user})`;
  return {
    text: `Workspace ${record.workspace}, served by ${by} on ${record.socket}\n${result.text}`,
    json: {
      ok: !result.isError,
      workspace: record.workspace,
      served_by: { mode: record.mode, user: record.user, socket: record.socket },
      status: result.structured,
    },
  };
}
