// Where a workspace's state lives (runtime/contracts/paths.ts): every path under <ws>/.ucagent, skillgate's own state
// under .ucagent/skillgate (the folder writes through the tools are always denied), from any spelling of the workspace.
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/paths.js";
import { ALWAYS_DENIED_DIRS } from "../../runtime/workspace/write-policy.js";

describe("workspacePaths", () => {
  it("lays out .ucagent/ as UCAgent and the design say", () => {
    expect(workspacePaths("/w")).toEqual({
      root: "/w",
      stateDir: "/w/.ucagent",
      skillsDir: "/w/.ucagent/skills",
      runtimeConfig: "/w/.ucagent/runtime_config.json",
      settingFile: "/w/.ucagent/setting.yaml",
      skillgateDir: "/w/.ucagent/skillgate",
      manifest: "/w/.ucagent/skillgate/manifest.json",
      ledger: "/w/.ucagent/skillgate/ledger.jsonl",
      progress: "/w/.ucagent/skillgate/progress.json",
      lockFile: "/w/.ucagent/skillgate/state.lock",
    });
  });

  it("resolves a relative or unclean workspace to one absolute root", () => {
    expect(workspacePaths("ws/./sub/../").root).toBe(resolve("ws"));
    expect(workspacePaths("/w/").ledger).toBe("/w/.ucagent/skillgate/ledger.jsonl");
  });

  it("keeps the copied pack and skillgate's state in the folders the write policy always denies", () => {
    const paths = workspacePaths("/w");
    const denied = ALWAYS_DENIED_DIRS.map((dir) => join("/w", dir));
    expect(denied).toEqual([paths.skillgateDir, paths.skillsDir]);
    for (const file of [paths.manifest, paths.ledger, paths.progress, paths.lockFile])
      expect(file.startsWith(`${paths.skillgateDir}/`)).toBe(true);
  });
});
