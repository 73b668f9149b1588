import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import {
  initWorkspace,
  readRuntimeConfig,
  resolveWorkspacePlaceholders,
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
