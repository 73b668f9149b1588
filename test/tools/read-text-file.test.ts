// ReadTextFile: numbered reads, every refusal (escapes, symlinks, binary, size), and read evidence of stage SKILL.md files.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, MAX_READ_CHARS } from "../../runtime/tools/read-text-file.js";
import { callTool } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, GATE_SKILL, GATE_SKILL_MD, makeFixture } from "./helpers.js";

let fixture: Fixture;
let session: OpenedSession;

async function setup(options: Parameters<typeof makeFixture>[0] = {}) {
  fixture = makeFixture(options);
  session = await fixture.open();
  const dut = join(fixture.ws, "dut");
  mkdirSync(dut, { recursive: true });
  writeFileSync(join(dut, "notes.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(join(dut, "empty.txt"), "");
  writeFileSync(join(dut, "binary.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
  writeFileSync(join(dut, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  writeFileSync(join(dut, "long.txt"), `${"x".repeat(200)}\n`.repeat(700));
  symlinkSync("/etc/hostname", join(dut, "outside-link"));
  symlinkSync("notes.txt", join(dut, "inside-link"));
}

afterEach(() => fixture.cleanup());

/** sha256 of dut/notes.txt ("alpha\nbeta\ngamma\n"): ReadTextFile returns it for conditional edits. */
const NOTES_SHA = createHash("sha256").update("alpha\nbeta\ngamma\n").digest("hex");

describe("ReadTextFile reads", () => {
  beforeEach(() => setup());

  it("returns every line numbered, with UCAgent's header", async () => {
    const result = await callTool(session, "ReadTextFile", { path: "dut/notes.txt" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      `Read 3/3 lines from 'dut/notes.txt' (lines 1-3), 0 lines remain after the read position. SHA256: ${NOTES_SHA}.\n\n` +
        "[TXT_DATA]\n1: alpha\n2: beta\n3: gamma\n",
    );
    expect(result.structured).toMatchObject({
      start: 1,
      end: 3,
      total_lines: 3,
      content: "alpha\nbeta\ngamma\n",
      sha256: NOTES_SHA,
    });
  });

  it("reads a range with start and count", async () => {
    const result = await callTool(session, "ReadTextFile", { path: "dut/notes.txt", start: 2, count: 1 });
    expect(result.text).toBe(
      `Read 1/3 lines from 'dut/notes.txt' (lines 2-2), 1 lines remain after the read position. SHA256: ${NOTES_SHA}.\n\n[TXT_DATA]\n2: beta\n`,
    );
  });

  it("follows a symlink that stays inside the workspace", async () => {
    const result = await callTool(session, "ReadTextFile", { path: "dut/inside-link" });
    expect(result.isError).toBe(false);
    expect(result.structured.content).toBe("alpha\nbeta\ngamma\n");
  });

  it("reads an empty file", async () => {
    const result = await callTool(session, "ReadTextFile", { path: "dut/empty.txt" });
    expect(result).toMatchObject({
      isError: false,
      text: `File dut/empty.txt is empty (0 lines). SHA256: ${createHash("sha256").update("").digest("hex")}.\n\n[TXT_DATA]\n`,
    });
  });

  it("refuses bad paths and contents with exact messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { path: "/etc/passwd" },
        "PATH_OUTSIDE_WORKSPACE",
        `Path '/etc/passwd' is absolute. Note: Leading '/' indicates an absolute path. Please provide a path relative to the workspace (.), e.g. '.ucagent/skills/<skill>/SKILL.md'.`,
      ],
      [
        { path: "dut/../../escape.txt" },
        "PATH_OUTSIDE_WORKSPACE",
        `File 'dut/../../escape.txt' is not within the workspace: '..' leads outside '.'. Please provide a path inside the workspace.`,
      ],
      [
        { path: "dut/outside-link" },
        "PATH_OUTSIDE_WORKSPACE",
        `File 'dut/outside-link' is not within the workspace: it is a symbolic link to /etc/hostname, outside '.'. Only files inside the workspace can be read.`,
      ],
      [
        { path: "dut/missing.txt" },
        "FILE_NOT_FOUND",
        `File dut/missing.txt does not exist in workspace '.'. Check the path (relative to the workspace); ListSkill shows the SKILL.md paths of the skills.`,
      ],
      [
        { path: "dut" },
        "FILE_NOT_FOUND",
        "Path 'dut' is a directory, not a file. Please provide a file path (e.g. 'dut/SKILL.md').",
      ],
      [
        { path: "dut/binary.bin" },
        "NOT_TEXT",
        "File dut/binary.bin is not a text file (it is not valid UTF-8 text). ReadTextFile reads text files only.",
      ],
      [
        { path: "dut/latin1.txt" },
        "NOT_TEXT",
        "File dut/latin1.txt is not a text file (it is not valid UTF-8 text). ReadTextFile reads text files only.",
      ],
      [
        { path: "dut/notes.txt", start: 9 },
        "INVALID_ARGS",
        "Start line 9 is out of range (file has 3 lines, valid range: 1-3).",
      ],
      [
        { path: "dut/notes.txt", count: 0 },
        "INVALID_ARGS",
        "Count is 0, no lines to read from file dut/notes.txt. Use count -1 to read to the end.",
      ],
      [
        { path: "dut/long.txt" },
        "FILE_TOO_LARGE",
        `Read size ${700 * (5 + 201)} characters exceeds the maximum read size of ${MAX_READ_CHARS} characters. You need to specify a smaller range. Current range is (start=1, count=ALL).`,
      ],
      [
        {},
        "INVALID_ARGS",
        `Invalid arguments for ReadTextFile: 'path' is required (string). Fix the call and try again, e.g. ReadTextFile {"path": ".ucagent/skills/<group>/<skill>/SKILL.md", "start": 1, "count": -1}.`,
      ],
      [
        { path: "dut/notes.txt", count: -5, lines: 3 },
        "INVALID_ARGS",
        `Invalid arguments for ReadTextFile: 'count' is too small (expected number to be >=-1), got -5; unknown field(s) 'lines'. Fix the call and try again, e.g. ReadTextFile {"path": ".ucagent/skills/<group>/<skill>/SKILL.md", "start": 1, "count": -1}.`,
      ],
    ];
    for (const [args, code, text] of cases) {
      const result = await callTool(session, "ReadTextFile", args);
      expect({ args, isError: result.isError, code: result.code, text: result.text }).toEqual({
        args,
        isError: true,
        code,
        text,
      });
    }
  });
});

describe("ReadTextFile size cap", () => {
  beforeEach(() => setup());

  it("refuses a file over 10 MiB before reading it", async () => {
    writeFileSync(join(fixture.ws, "dut", "huge.txt"), Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    const result = await callTool(session, "ReadTextFile", { path: "dut/huge.txt", count: 1 });
    expect(result).toMatchObject({ isError: true, code: "FILE_TOO_LARGE" });
    expect(result.text).toBe(
      `File dut/huge.txt is ${MAX_FILE_BYTES + 1} bytes, over the ${MAX_FILE_BYTES}-byte limit of ReadTextFile. Read a smaller file.`,
    );
  });
});

describe("ReadTextFile read evidence", () => {
  beforeEach(() => setup());

  it("a whole read of the stage skill's SKILL.md records read", async () => {
    const result = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD });
    expect(result.structured.skill_read).toEqual({ skill_id: GATE_SKILL, read_complete: true });
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.read).toBe(true);
  });

  it("partial reads count once together they cover the file", async () => {
    const whole = await callTool(session, "ReadTextFile", { path: "dut/notes.txt" });
    expect(whole.structured.skill_read).toBeNull();
    const first = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD, start: 1, count: 5 });
    expect(first.structured.skill_read).toEqual({ skill_id: GATE_SKILL, read_complete: false });
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.read).toBe(false);
    const zero = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD, start: 6, count: 0 });
    expect(zero.isError).toBe(true);
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.read).toBe(false);
    const rest = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD, start: 6 });
    expect(rest.structured.skill_read).toEqual({ skill_id: GATE_SKILL, read_complete: true });
    expect((await session.engine.current())?.evidence[GATE_SKILL]?.read).toBe(true);
  });

  it("reading a skill that is not a stage skill records nothing", async () => {
    const result = await callTool(session, "ReadTextFile", {
      path: ".ucagent/skills/fixture/text-skill/SKILL.md",
    });
    expect(result.isError).toBe(false);
    expect(result.structured.skill_read).toBeNull();
  });
});

describe("ReadTextFile with skills disabled or the skill folder missing", () => {
  it("still reads workspace files when skills are disabled (it is a general file tool) and records nothing", async () => {
    await setup({ useSkill: false });
    const result = await callTool(session, "ReadTextFile", { path: "dut/notes.txt" });
    expect(result.isError).toBe(false);
    expect(result.structured.skill_read).toBeNull();
  });

  it("answers a clear not-found for a SKILL.md path when the skill folder is missing", async () => {
    await setup();
    renameSync(session.paths.skillsDir, join(fixture.dir, "hidden"));
    const result = await callTool(session, "ReadTextFile", { path: GATE_SKILL_MD });
    expect(result).toMatchObject({ isError: true, code: "FILE_NOT_FOUND" });
    expect((await callTool(session, "ReadTextFile", { path: "dut/notes.txt" })).isError).toBe(false);
  });
});
