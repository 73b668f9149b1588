// The UCAgent file tools through the real SDK client: the write boundary, refusals that change nothing, freshness, --no-file-tools.
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture } from "../tools/helpers.js";
import {
  connectHttp,
  connectStdio,
  type HttpServer,
  type StdioConnection,
  startHttpServer,
  ValidatingClient,
} from "./helpers.js";

let fixture: Fixture | undefined;
let connection: StdioConnection | undefined;
let server: HttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await connection?.close();
  connection = undefined;
  await server?.stop();
  server = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

const FILE_TOOLS = [
  "EditTextFile",
  "ReplaceStringInFile",
  "DeleteTextLines",
  "PathList",
  "FindFiles",
  "SearchText",
  "GetFileInfo",
  "CreateDirectory",
  "CopyFile",
  "MoveFile",
  "DeleteFile",
];

/** Every entry under `dir`: kind, mode, and content hash or link target. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string, rel: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const key = rel ? `${rel}/${name}` : name;
      const info = lstatSync(path);
      if (info.isSymbolicLink()) out[key] = `link ${readlinkSync(path)}`;
      else if (info.isDirectory()) {
        out[key] = `dir ${(info.mode & 0o777).toString(8)}`;
        walk(path, key);
      } else {
        const hash = createHash("sha256").update(readFileSync(path)).digest("hex");
        out[key] = `file ${(info.mode & 0o777).toString(8)} ${hash}`;
      }
    }
  };
  walk(dir, "");
  return out;
}

/** A workspace with protected files, and symlinks from out/ to a folder outside the workspace. */
function boundaryFixture(): { fx: Fixture; outside: string } {
  const fx = makeFixture();
  const outside = join(fx.dir, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, "target.txt"), "outside\nsecret\n");
  return { fx, outside };
}

function seed(fx: Fixture, outside: string): void {
  mkdirSync(join(fx.ws, "dut"), { recursive: true });
  writeFileSync(join(fx.ws, "dut", "x.txt"), "dut line\n");
  mkdirSync(join(fx.ws, "guide_doc"), { recursive: true });
  writeFileSync(join(fx.ws, "guide_doc", "g.md"), "# guide\n");
  mkdirSync(join(fx.ws, "out"), { recursive: true });
  symlinkSync(outside, join(fx.ws, "out", "link"));
  symlinkSync(join(outside, "target.txt"), join(fx.ws, "out", "linkfile"));
}

describe("file tools over stdio", () => {
  it("refuses every write outside OUT (DUT, guide_doc, .ucagent, '..', absolute, symlinks out) and changes nothing", async () => {
    const { fx, outside } = boundaryFixture();
    fixture = fx;
    connection = await connectStdio(["--workspace", fx.ws, "--config", fx.configFile], fx.env);
    seed(fx, outside);
    const client = new ValidatingClient(connection.client);
    const targets = [
      "dut/x.txt",
      "guide_doc/g.md",
      ".ucagent/runtime_config.json",
      ".ucagent/new.txt",
      GATE_SKILL_MD,
      "../outside/target.txt",
      "out/../../outside/target.txt",
      join(outside, "target.txt"),
      "out/link/target.txt",
      "out/link/new.txt",
      "out/linkfile",
      "dut",
      ".",
    ];
    const before = { ws: snapshot(fx.ws), outside: snapshot(outside) };
    const calls: [string, Record<string, unknown>][] = targets.flatMap((target) => [
      ["EditTextFile", { path: target, content: "pwned\n" }],
      ["EditTextFile", { path: target, content: "pwned\n", append: true }],
      ["ReplaceStringInFile", { path: target, old_string: "line", new_string: "pwned" }],
      ["DeleteTextLines", { path: target, line_blocks: [1] }],
      ["CreateDirectory", { path: `${target}/sub` }],
      ["CreateDirectory", { path: target }],
      ["CopyFile", { source_path: "out/../dut/x.txt", dest_path: target, overwrite: true }],
      ["MoveFile", { source_path: target, dest_path: "out/moved.txt" }],
      ["MoveFile", { source_path: "dut/x.txt", dest_path: target, overwrite: true }],
      ["DeleteFile", { path: target }],
      ["DeleteFile", { path: target, is_dir: true, recursive: true }],
    ]);
    const codes = new Set<string>();
    for (const [tool, args] of calls) {
      const result = await client.call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)} -> ${result.text}`).toBe(true);
      codes.add(String(result.structured.code));
    }
    expect([...codes].sort()).toEqual(["INVALID_ARGS", "PATH_OUTSIDE_WORKSPACE", "WRITE_NOT_ALLOWED"]);
    expect({ ws: snapshot(fx.ws), outside: snapshot(outside) }).toEqual(before);
    expect(client.validated).toBe(calls.length);

    const dut = await client.call("EditTextFile", { path: "dut/x.txt", content: "pwned\n" });
    expect(dut.text).toBe(
      "Path 'dut/x.txt' is not allowed to write, except in: out/ (write_dirs); never in dut/, guide_doc/, .ucagent/ " +
        "(un_write_dirs and skillgate's state). Write the stage outputs inside an allowed folder.",
    );
    const link = await client.call("EditTextFile", { path: "out/linkfile", content: "x" });
    expect(link.text).toBe("Refusing to modify path 'out/linkfile' through a symbolic link.");
    const escaped = await client.call("EditTextFile", { path: "out/link/new.txt", content: "x" });
    expect(escaped.text).toBe(
      "Refusing to use path 'out/link/new.txt' through a symbolic link that leads outside the workspace.",
    );
    // Reads anywhere inside the workspace are fine, through the same safe layer (a link out is refused).
    expect((await client.ok("ReadTextFile", { path: "dut/x.txt" })).structured.content).toBe("dut line\n");
    expect((await client.call("ReadTextFile", { path: "out/linkfile" })).isError).toBe(true);
    expect((await client.call("GetFileInfo", { path: "out/link/target.txt" })).isError).toBe(true);
  });

  it("writes a stage output with EditTextFile/ReplaceStringInFile, and the change invalidates a passing Check", async () => {
    fixture = makeFixture({ force: false });
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const client = new ValidatingClient(connection.client);
    const created = await client.ok("EditTextFile", {
      path: "out/report.md",
      content: "# Report\nfirst draft\n",
    });
    const sha1 = createHash("sha256").update("# Report\nfirst draft\n").digest("hex");
    const empty = createHash("sha256").update("").digest("hex");
    expect(created.text).toBe(
      `Created 'out/report.md' with 21 characters. SHA256: ${empty} -> ${sha1}.\n[DIFF]\n--- out/report.md(old)\n` +
        "+++ out/report.md(new)\n@@ -0,0 +1,2 @@\n+# Report\n+first draft\n",
    );
    const read = await client.ok("ReadTextFile", { path: "out/report.md" });
    expect(read.structured.sha256).toBe(sha1);
    expect(read.text.split("\n")[0]).toBe(
      `Read 2/2 lines from 'out/report.md' (lines 1-2), 0 lines remain after the read position. SHA256: ${sha1}.`,
    );
    const check = await client.ok("Check");
    expect(check.structured.check_pass).toBe(true);
    expect((await client.ok("Status")).structured.check_passed).toBe(true);
    // A stale expected_sha256 is refused and writes nothing.
    const stale = await client.call("ReplaceStringInFile", {
      path: "out/report.md",
      old_string: "first",
      new_string: "second",
      expected_sha256: empty,
    });
    expect(stale.text).toBe(
      `File out/report.md changed after it was read. Expected SHA256 ${empty}, current SHA256 ${sha1}. Read it again and retry.`,
    );
    expect((await client.ok("Status")).structured.check_passed).toBe(true);
    const replaced = await client.ok("ReplaceStringInFile", {
      path: "out/report.md",
      old_string: "first",
      new_string: "second",
      expected_sha256: sha1,
    });
    expect(replaced.text.split("\n")[0]).toMatch(
      /^Successfully replaced 1 occurrence of the specified string in out\/report\.md\. SHA256: [0-9a-f]{64} -> [0-9a-f]{64}\.$/,
    );
    expect(readFileSync(join(fixture.ws, "out", "report.md"), "utf8")).toBe("# Report\nsecond draft\n");
    // The output changed after Check: Check must pass again before Complete.
    const status = await client.ok("Status");
    expect(status.structured.check_passed).toBe(false);
    expect(status.text).toContain("Check: not passed (");
  });

  it("serve --no-file-tools leaves them out; calling one is -32602", async () => {
    fixture = makeFixture();
    connection = await connectStdio(
      ["--workspace", fixture.ws, "--config", fixture.configFile, "--no-file-tools"],
      fixture.env,
    );
    expect(connection.client.getInstructions()).toContain(
      "Write stage outputs with your own file tools inside the output folder; every failed call says what to do next.",
    );
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "ListSkill",
      "ReadTextFile",
      "RunSkillScript",
      "SetSkillUsage",
      "Check",
      "Complete",
      "Status",
    ]);
    await expect(
      connection.client.callTool({ name: "EditTextFile", arguments: { path: "out/a.md", content: "x" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        "MCP error -32602: Tool 'EditTextFile' is not available: the file tools are left out (serve --no-file-tools " +
        "or file_tools: false); use the host's own file tools. Available tools: ListSkill, ReadTextFile, " +
        "RunSkillScript, SetSkillUsage, Check, Complete, Status.",
    });
  });

  it("offers all file tools by default, after the workflow tools", async () => {
    fixture = makeFixture();
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const names = (await connection.client.listTools()).tools.map((tool) => tool.name);
    expect(names.slice(7)).toEqual(FILE_TOOLS);
    const destructive = (await connection.client.listTools()).tools
      .filter((tool) => tool.annotations?.destructiveHint)
      .map((tool) => tool.name);
    expect(destructive).toEqual([
      "RunSkillScript",
      "EditTextFile",
      "ReplaceStringInFile",
      "DeleteTextLines",
      "CopyFile",
      "MoveFile",
      "DeleteFile",
    ]);
    expect(GATE_SKILL).toBe("fixture/gate-skill");
  });
});

describe("file tools over HTTP", () => {
  it("refuses a write into DUT and into .ucagent, and writes into OUT", async () => {
    fixture = makeFixture();
    server = await startHttpServer(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    const raw = await connectHttp(server.url);
    clients.push(raw);
    const client = new ValidatingClient(raw);
    mkdirSync(join(fixture.ws, "dut"), { recursive: true });
    const before = snapshot(fixture.ws);
    for (const path of ["dut/new.txt", ".ucagent/skillgate/progress.json", "../escape.txt"]) {
      expect((await client.call("EditTextFile", { path, content: "x" })).isError).toBe(true);
    }
    expect(snapshot(fixture.ws)).toEqual(before);
    await client.ok("CreateDirectory", { path: "out/notes" });
    await client.ok("EditTextFile", { path: "out/notes/a.md", content: "a\n" });
    await client.ok("CopyFile", { source_path: "out/notes/a.md", dest_path: "out/notes/b.md" });
    await client.ok("MoveFile", { source_path: "out/notes/b.md", dest_path: "out/c.md" });
    const listed = await client.ok("PathList", { path: "out" });
    expect(listed.text).toBe(
      "Found 1 directories and 2 files in workspace.\n\nIndex    Name    (Type, Size, Bytes)\n" +
        "0    out/c.md    (type: text, size: 2 B, bytes: 2)\n" +
        "1    out/notes/    (type: directory, size: N/A, bytes: N/A)\n" +
        "2    out/notes/a.md    (type: text, size: 2 B, bytes: 2)",
    );
    await client.ok("DeleteFile", { path: "out/notes", is_dir: true, recursive: true });
    expect(readdirSync(join(fixture.ws, "out"))).toEqual(["c.md"]);
  });
});
