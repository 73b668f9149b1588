// The server record (authority/record.ts): written where clients look, read back validated, and a broken one named with its fix.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { readServerRecord, type ServerRecord, serverRecordFile } from "../../runtime/authority/index.js";
import { writeServerRecord } from "../../runtime/authority/record.js";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { tempRoot } from "../support/workspace.js";

const root = tempRoot("skillgate-server-record-");
afterAll(() => root.cleanup());

const record: ServerRecord = {
  version: 1,
  mode: "authority",
  socket: "/run/skillgate/ws.sock",
  workspace: root.path("ws"),
  uid: 1001,
  user: "sg-auth",
  pid: 4242,
  started_at: "2026-01-01T00:00:00.000Z",
  http: null,
};

function workspace(name: string): string {
  const ws = root.path(name);
  mkdirSync(workspacePaths(ws).skillgateDir, { recursive: true });
  return ws;
}

describe("the server record", () => {
  it("lives in the state folder, is readable by the agent (0644), and reads back as written", async () => {
    const ws = workspace("ws");
    const paths = workspacePaths(ws);
    expect(serverRecordFile(paths)).toBe(`${paths.skillgateDir}/server.json`);
    await writeServerRecord(paths, record);
    expect(statSync(serverRecordFile(paths)).mode & 0o777).toBe(0o644);
    expect(JSON.parse(readFileSync(serverRecordFile(paths), "utf8"))).toEqual(record);
    expect(await readServerRecord(ws)).toEqual(record);
  });

  it("is null when no server serves the workspace, or there is no state folder at all", async () => {
    expect(await readServerRecord(workspace("unserved"))).toBeNull();
    expect(await readServerRecord(root.path("no-such-ws"))).toBeNull();
    // A file where the state folder should be (ENOTDIR): still "not served", not an error.
    const odd = root.path("odd");
    mkdirSync(odd);
    writeFileSync(`${odd}/.ucagent`, "x");
    expect(await readServerRecord(odd)).toBeNull();
  });

  it.each([
    [
      "not JSON",
      "{ server",
      /^the server record .* is not valid \(.*\); fix: restart the server that wrote it, which rewrites it$/,
    ],
    [
      "an unknown mode",
      JSON.stringify({ ...record, mode: "root" }),
      /^the server record .* is not valid \(.*\); fix: restart the server that wrote it, which rewrites it$/,
    ],
    [
      "no socket",
      JSON.stringify({ ...record, socket: "" }),
      /^the server record .* is not valid \(.*\); fix: restart the server that wrote it, which rewrites it$/,
    ],
  ])("%s is AUTHORITY_UNREACHABLE naming the file and the fix", async (name, text, message) => {
    const ws = workspace(`bad-${name.replaceAll(" ", "-")}`);
    const file = serverRecordFile(workspacePaths(ws));
    writeFileSync(file, text);
    const error = await readServerRecord(ws).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "AUTHORITY_UNREACHABLE", details: { file } });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(`the server record ${file} is not valid (`);
  });

  it("a record that cannot be read (a folder in its place) says so with the fix", async () => {
    const ws = workspace("folder");
    const file = serverRecordFile(workspacePaths(ws));
    mkdirSync(file);
    await expect(readServerRecord(ws)).rejects.toMatchObject({
      code: "AUTHORITY_UNREACHABLE",
      message: `cannot read the server record ${file} (EISDIR); fix: make it readable by this user, or ask the operator of the skillgate authority`,
    });
  });
});
