// The config memo: a load from byte-identical layer files is served from <home>/cache/config; any change, another build or a bad entry resolves again.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LoadConfigOptions, loadConfig } from "../../runtime/config/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import { configMemoIn } from "../../runtime/workspace/index.js";
import { type ConfigSandbox, configSandbox } from "./helpers.js";

let box: ConfigSandbox;
let configFile: string;
beforeEach(() => {
  box = configSandbox();
  box.write("default.yaml", "DUT: dut\nOUT: out\nskill:\n  use_skill: true\n");
  configFile = box.write("config.yaml", "DUT: first\n");
});
afterEach(() => box.cleanup());

const memoDir = () => join(box.home, "cache", "config");
const entries = () => readdirSync(memoDir()).filter((name) => name.endsWith(".json"));
const options = (build = "build-a", extra: Partial<LoadConfigOptions> = {}): LoadConfigOptions => ({
  workspace: box.workspace,
  configFile,
  defaultFile: box.defaultFile,
  env: box.env,
  cwd: box.root,
  memo: configMemoIn(box.home, build),
  ...extra,
});

async function loadError(opts: LoadConfigOptions): Promise<SkillgateError> {
  try {
    await loadConfig(opts);
  } catch (error) {
    if (error instanceof SkillgateError) return error;
    throw error;
  }
  throw new Error("loadConfig did not fail");
}

/** Rewrites the stored entry's DUT, keeping its key: a later load that returns it was served from the memo. */
function plantDut(value: string): void {
  const file = join(memoDir(), entries()[0] as string);
  const entry = JSON.parse(readFileSync(file, "utf8"));
  entry.result.config.DUT = value;
  writeFileSync(file, JSON.stringify(entry));
}

describe("config memo", () => {
  it("stores the resolved config and serves the next load from the same files", async () => {
    const fresh = await loadConfig(options());
    expect(entries()).toHaveLength(1);
    expect(await loadConfig(options())).toEqual(fresh);
    plantDut("from-memo");
    expect((await loadConfig(options())).config.DUT).toBe("from-memo");
  });

  it("a changed byte in any layer resolves again and replaces the entry", async () => {
    await loadConfig(options());
    plantDut("from-memo");
    writeFileSync(configFile, "DUT: second\n");
    expect((await loadConfig(options())).config.DUT).toBe("second");
    box.write("ws/.ucagent/setting.yaml", "OUT: elsewhere\n");
    const withSetting = await loadConfig(options());
    expect(withSetting.config.OUT).toBe("elsewhere");
    expect(withSetting.sources).toEqual([
      box.defaultFile,
      join(box.workspace, ".ucagent", "setting.yaml"),
      configFile,
    ]);
    expect(entries()).toHaveLength(1);
  });

  it("flags are part of the question: another flag set is another entry", async () => {
    await loadConfig(options());
    const off = await loadConfig(options("build-a", { flags: { useSkill: false } }));
    expect(off.config.skill.use_skill).toBe(false);
    expect(off.sources.at(-1)).toBe("command-line flags");
    expect(entries()).toHaveLength(2);
  });

  it("an entry written by another build is never used", async () => {
    await loadConfig(options("build-a"));
    plantDut("from-memo");
    expect((await loadConfig(options("build-b"))).config.DUT).toBe("first");
  });

  it("a garbled entry is a miss: the config resolves and the entry is rewritten", async () => {
    await loadConfig(options());
    const file = join(memoDir(), entries()[0] as string);
    writeFileSync(file, "{not json");
    expect((await loadConfig(options())).config.DUT).toBe("first");
    expect(JSON.parse(readFileSync(file, "utf8")).result.config.DUT).toBe("first");
  });

  it("an invalid config is never stored and fails with the same message every time", async () => {
    writeFileSync(configFile, 'skill:\n  use_skill: "false"\n');
    const first = await loadError(options());
    const again = await loadError(options());
    expect(first.code).toBe("CONFIG_INVALID");
    expect(again.message).toBe(first.message);
    expect(first.message).toBe(
      `invalid config: ${configFile}:2: skill.use_skill: expected a boolean (true or false), got "false" (a string); write false without quotes`,
    );
    expect(readdirSync(box.home)).not.toContain("cache");
  });

  it("read errors come in the order of the layers, as without a memo", async () => {
    box.write("ws/.ucagent/setting.yaml", "skill: [unclosed\n");
    const missing = join(box.root, "missing.yaml");
    const withMemo = await loadError(options("build-a", { configFile: missing }));
    const without = await loadError({ ...options("build-a", { configFile: missing }), memo: undefined });
    expect(withMemo.code).toBe("CONFIG_UNREADABLE");
    expect(withMemo.message).toBe(without.message);
  });
});
