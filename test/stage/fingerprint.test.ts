// Output fingerprints (stage/fingerprint.ts) through the tools: a FIFO, device or escaping symlink planted as a stage output is named, never read.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { changedOutputs, fingerprintOutputs } from "../../runtime/stage/index.js";
import { callTool } from "../../runtime/tools/registry.js";
import { tempRoot } from "../support/workspace.js";
import { type Fixture, makeFixture } from "../tools/helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

/** The fingerprint entries of the last check record in the signed ledger. */
function lastCheckFiles(ws: string): Record<string, string> {
  const lines = readFileSync(workspacePaths(ws).ledger, "utf8").trim().split("\n");
  const checks = lines.map((l) => JSON.parse(l)).filter((r) => r.kind === "check");
  return checks.at(-1).data.files;
}

const NOT_READ = "it was not read or fingerprinted";

describe("stage outputs that are not regular files", () => {
  it.each([
    {
      name: "a FIFO (would block a reader forever)",
      plant: (file: string) => execFileSync("mkfifo", [file]),
      entry: "not-regular:fifo",
      warning: `output out/report.md is a fifo, not a regular file: ${NOT_READ}; write a regular file there`,
    },
    {
      name: "a character device (/dev/zero's numbers: endless bytes)",
      plant: (file: string) => execFileSync("mknod", [file, "c", "1", "5"]),
      entry: "not-regular:device",
      warning: `output out/report.md is a device, not a regular file: ${NOT_READ}; write a regular file there`,
    },
    {
      name: "a symlink to a host file",
      plant: (file: string, dir: string) => {
        writeFileSync(join(dir, "host-secret.txt"), "host secret\n");
        symlinkSync(join(dir, "host-secret.txt"), file);
      },
      entry: "outside",
      warning: `output out/report.md is a link that leads outside the workspace: ${NOT_READ}; replace the link with the file itself`,
    },
    {
      name: "a symlink to a FIFO inside the workspace",
      plant: (file: string, _dir: string, ws: string) => {
        execFileSync("mkfifo", [join(ws, "pipe")]);
        symlinkSync("../pipe", file);
      },
      entry: "not-regular:fifo",
      warning: `output out/report.md links to a fifo, not a regular file: ${NOT_READ}; write a regular file there`,
    },
  ])("$name: Check and Complete answer at once and say so", async ({ plant, entry, warning }) => {
    fixture = makeFixture();
    const session = await fixture.open();
    mkdirSync(join(fixture.ws, "out"), { recursive: true });
    plant(join(fixture.ws, "out", "report.md"), fixture.dir, fixture.ws);
    const check = await callTool(session, "Check", {});
    expect(check.text).toContain(`Warning: ${warning}`);
    expect(lastCheckFiles(fixture.ws)).toEqual({ "out/report.md": entry });
    const complete = await callTool(session, "Complete", {});
    expect(complete.code).toBe("SKILL_USAGE_INCOMPLETE");
    expect(complete.text).toContain(`Warning: ${warning}`);
    // Said once per call, not once per fingerprint taken during it.
    expect(complete.text.split(warning).length).toBe(2);
  });

  it("a symlink to a file inside the workspace is hashed by its target's content", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    mkdirSync(join(fixture.ws, "out"), { recursive: true });
    writeFileSync(join(fixture.ws, "real.md"), "# report\n");
    symlinkSync("../real.md", join(fixture.ws, "out", "report.md"));
    const check = await callTool(session, "Check", {});
    expect(check.text).not.toContain("Warning:");
    const { createHash } = await import("node:crypto");
    const { mtimeMs } = statSync(join(fixture.ws, "real.md"));
    const sha = createHash("sha256").update("# report\n").digest("hex");
    expect(lastCheckFiles(fixture.ws)).toEqual({ "out/report.md": `9:${mtimeMs}:${sha}` });
  });

  it("an output folder holding a FIFO lists it without opening it", async () => {
    fixture = makeFixture();
    const session = await fixture.open();
    mkdirSync(join(fixture.ws, "out", "report.md"), { recursive: true });
    writeFileSync(join(fixture.ws, "out", "report.md", "a.txt"), "a");
    execFileSync("mkfifo", [join(fixture.ws, "out", "report.md", "p")]);
    const check = await callTool(session, "Check", {});
    expect(check.text).toContain(
      `Warning: output out/report.md/p is a fifo, not a regular file: ${NOT_READ}; write a regular file there`,
    );
    expect(lastCheckFiles(fixture.ws)).toMatchObject({
      "out/report.md": "folder",
      "out/report.md/p": "not-regular:fifo",
      "out/report.md/a.txt": expect.stringMatching(/^1:/),
    });
  });
});

describe("fingerprintOutputs", () => {
  const root = tempRoot("skillgate-fingerprint-", { realpath: true });
  afterAll(() => root.cleanup());
  const runtime = { workspace: root.dir, OUT: root.path("out"), DUT: root.path("dut") };
  const sha = (text: string) => createHash("sha256").update(text).digest("hex");

  it("names each output with size, mtime and sha256; the hash changes with any byte and not with the order given", async () => {
    mkdirSync(root.path("out"), { recursive: true });
    writeFileSync(root.path("out", "a.md"), "alpha\n");
    writeFileSync(root.path("out", "b.md"), "beta\n");
    const first = await fingerprintOutputs(["{OUT}/a.md", "out/b.md", "out/none.md"], runtime, root.dir);
    const mtime = (name: string) => statSync(root.path("out", name)).mtimeMs;
    expect(first.files).toEqual({
      "out/a.md": `6:${mtime("a.md")}:${sha("alpha\n")}`,
      "out/b.md": `5:${mtime("b.md")}:${sha("beta\n")}`,
      "out/none.md": "missing",
    });
    expect(first.problems).toEqual([]);
    const reordered = await fingerprintOutputs(["out/none.md", "out/b.md", "{OUT}/a.md"], runtime, root.dir);
    expect(reordered.hash).toBe(first.hash);
    writeFileSync(root.path("out", "b.md"), "betA\n");
    const edited = await fingerprintOutputs(["{OUT}/a.md", "out/b.md", "out/none.md"], runtime, root.dir);
    expect(edited.hash).not.toBe(first.hash);
    expect(changedOutputs(first.files, edited.files)).toEqual(["out/b.md"]);
  });

  it("an output path outside the workspace is not read, and the stage config is named as the fix", async () => {
    const outside = tempRoot("skillgate-fingerprint-outside-");
    try {
      writeFileSync(outside.path("secret.txt"), "host secret\n");
      const result = await fingerprintOutputs([outside.path("secret.txt")], runtime, root.dir);
      expect(result.files).toEqual({ [outside.path("secret.txt")]: "outside" });
      expect(result.problems).toEqual([
        `output ${outside.path("secret.txt")} is outside the workspace: it was not read or fingerprinted (fix output_files in the stage config)`,
      ]);
    } finally {
      outside.cleanup();
    }
  });
});
