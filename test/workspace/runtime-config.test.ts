import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import {
  initWorkspace,
  readRuntimeConfig,
  resolveWorkspacePlaceholders,
  writeFileAtomic,
} from "../../runtime/workspace/index.js";
import { configWith, tempDir } from "./helpers.js";

let tmp: ReturnType<typeof tempDir>;
let paths: WorkspacePaths;
beforeEach(() => {
  tmp = tempDir();
  paths = workspacePaths(join(tmp.dir, "ws"));
});
afterEach(() => tmp.cleanup());

async function readError(): Promise<SkillgateError> {
  try {
    await readRuntimeConfig(paths);
  } catch (error) {
    if (error instanceof SkillgateError) return error;
    throw error;
  }
  throw new Error("readRuntimeConfig did not fail");
}

describe("readRuntimeConfig", () => {
  it("reads what init wrote", async () => {
    const report = await initWorkspace({ workspace: paths.root, config: configWith({ use_skill: false }) });
    expect(await readRuntimeConfig(paths)).toEqual(report.runtimeConfig);
  });

  const cases: [string, string | null, string, (p: WorkspacePaths) => string][] = [
    [
      "missing",
      null,
      "WORKSPACE_NOT_INITIALISED",
      (p) =>
        `workspace ${p.root} is not initialised: ${p.runtimeConfig} is missing; run: skillgate init ${p.root}`,
    ],
    [
      "not JSON",
      "{ nope",
      "CONFIG_INVALID",
      (p) =>
        `${p.runtimeConfig} is corrupt (not JSON: Expected property name or '}' in JSON at position 2); re-run: skillgate init ${p.root}`,
    ],
    [
      "wrong shape",
      JSON.stringify({ schema_version: 1, workspace: "/w" }),
      "CONFIG_INVALID",
      (p) =>
        `${p.runtimeConfig} is corrupt (DUT: Invalid input: expected string, received undefined); re-run: skillgate init ${p.root}`,
    ],
    [
      "unknown schema version",
      JSON.stringify({
        schema_version: 2,
        workspace: "/w",
        DUT: "/w/d",
        OUT: "/w/o",
        skills_enabled: true,
        skills_dir: "/w/s",
        pack_path: null,
        initialised_at: "x",
      }),
      "CONFIG_INVALID",
      (p) =>
        `${p.runtimeConfig} is corrupt (schema_version: Invalid input: expected 1); re-run: skillgate init ${p.root}`,
    ],
  ];
  it.each(cases)("%s", async (_name, content, code, message) => {
    if (content !== null) {
      mkdirSync(paths.stateDir, { recursive: true });
      writeFileSync(paths.runtimeConfig, content);
    }
    const error = await readError();
    expect(error.code).toBe(code);
    expect(error.message).toBe(message(paths));
  });
});

describe("resolveWorkspacePlaceholders", () => {
  const runtime = { OUT: "/w/out", DUT: "/w/dut", workspace: "/w" };
  it.each([
    ["{OUT}/report.md", "/w/out/report.md"],
    ["{DUT} and {DUT}", "/w/dut and /w/dut"],
    ["{WORKSPACE}/x", "/w/x"],
    ["{out} {OTHER} {} {OUT", "{out} {OTHER} {} {OUT"],
    ["no placeholders", "no placeholders"],
  ])("%s", (text, expected) => {
    expect(resolveWorkspacePlaceholders(text, runtime)).toBe(expected);
  });
});

describe("writeFileAtomic", () => {
  it("creates, replaces and leaves no temp file behind", async () => {
    const file = join(tmp.dir, "state.json");
    await writeFileAtomic(file, "one");
    await writeFileAtomic(file, Buffer.from("two"));
    expect(readFileSync(file, "utf8")).toBe("two");
    expect(readdirSync(tmp.dir)).toEqual(["state.json"]);
  });

  it("applies the requested mode", async () => {
    const file = join(tmp.dir, "key");
    await writeFileAtomic(file, "secret", { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("fails without touching the target when the folder is missing", async () => {
    const file = join(tmp.dir, "missing", "f");
    await expect(writeFileAtomic(file, "x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
      message: `Cannot write ${file}: it does not exist.`,
      details: { errno: "ENOENT" },
    });
    expect(readdirSync(tmp.dir)).toEqual([]);
  });

  it("forces the requested mode on a replaced file (a 0o644 key becomes 0o600)", async () => {
    const file = join(tmp.dir, "key");
    await writeFileAtomic(file, "old", { mode: 0o644 });
    await writeFileAtomic(file, "new", { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe("new");
  });

  it("replaces a symlink at the target instead of writing through it", async () => {
    const outside = join(tmp.dir, "outside.txt");
    writeFileSync(outside, "keep");
    const file = join(tmp.dir, "state.json");
    symlinkSync(outside, file);
    await writeFileAtomic(file, "new");
    expect(readFileSync(outside, "utf8")).toBe("keep");
    expect(lstatSync(file).isSymbolicLink()).toBe(false);
    expect(readFileSync(file, "utf8")).toBe("new");
  });
});
