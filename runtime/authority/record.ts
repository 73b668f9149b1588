// The server record in <ws>/.ucagent/skillgate/server.json: where a socket server of the workspace listens, readable by the agent.
import { join } from "node:path";
import { z } from "zod";
import { type WorkspacePaths, workspacePaths } from "../contracts/index.js";
import { isSkillgateError, SkillgateError } from "../errors.js";
import { readSmallFile, writeFileAtomic } from "../workspace/index.js";

/** Built on first use: a local call finds no record and never parses one. */
const buildServerRecordSchema = () =>
  z.object({
    version: z.literal(1),
    /** "authority": a separate OS user holds the key and the state folder; "socket": same-user server on a socket. */
    mode: z.enum(["authority", "socket"]),
    socket: z.string().min(1),
    workspace: z.string(),
    uid: z.number().int(),
    user: z.string(),
    pid: z.number().int(),
    started_at: z.string(),
    /** Streamable HTTP URL when the server also listens there (the token is never recorded). */
    http: z.string().nullable(),
  });
let serverRecordSchema: ReturnType<typeof buildServerRecordSchema> | undefined;
export type ServerRecord = z.infer<ReturnType<typeof buildServerRecordSchema>>;

export function serverRecordFile(paths: Pick<WorkspacePaths, "skillgateDir">): string {
  return join(paths.skillgateDir, "server.json");
}

export async function writeServerRecord(paths: WorkspacePaths, record: ServerRecord): Promise<void> {
  await writeFileAtomic(serverRecordFile(paths), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
}

/** The record of the server serving `workspace`, or null when it is served by no socket server. */
export async function readServerRecord(workspace: string): Promise<ServerRecord | null> {
  const file = serverRecordFile(workspacePaths(workspace));
  let text: string;
  try {
    text = await readSmallFile(file);
  } catch (error) {
    if (isSkillgateError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw new SkillgateError(
      "AUTHORITY_UNREACHABLE",
      `cannot read the server record ${file} (${code}); fix: make it readable by this user, or ask the operator of the skillgate authority`,
      { file },
    );
  }
  let parsed: ServerRecord;
  try {
    serverRecordSchema ??= buildServerRecordSchema();
    parsed = serverRecordSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new SkillgateError(
      "AUTHORITY_UNREACHABLE",
      `the server record ${file} is not valid (${(error as Error).message.split("\n")[0]}); fix: restart the server that wrote it, which rewrites it`,
      { file },
    );
  }
  return parsed;
}
