// The built CLI keeps the config it resolved in <home>/cache/config and reads the layers again when one changes.
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { runProcess } from "../support/process.js";
import { type Fixture, makeFixture, REPO_ROOT } from "../tools/helpers.js";

let fixture: Fixture;

function built(args: string[]) {
  return runProcess(process.execPath, [BUILT_MAIN, ...args], {
    cwd: REPO_ROOT,
    env: { ...fixture.env, NO_COLOR: "1" },
  });
}

beforeAll(() => {
  ensureBuilt();
  fixture = makeFixture();
}, 600_000);
afterAll(() => fixture?.cleanup());

const listSkill = () =>
  built(["call", "ListSkill", "--workspace", fixture.ws, "--config", fixture.configFile]);
const memoEntries = () => readdirSync(join(fixture.home, "cache", "config"));

describe("config memo of the built CLI", () => {
  it("answers the same from the memo, and a layer edited after it is read again", async () => {
    const first = await listSkill();
    expect(first.code).toBe(0);
    expect(memoEntries()).toHaveLength(1);
    const again = await listSkill();
    expect(again).toEqual(first);

    const setting = join(fixture.ws, ".ucagent", "setting.yaml");
    // A key the --config layer does not set, so the bad value is the one that counts.
    writeFileSync(setting, 'file_tools: "false"\n');
    const broken = await listSkill();
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      `${setting}:1: file_tools: expected a boolean (true or false), got "false" (a string); write false without quotes`,
    );

    rmSync(setting);
    expect(await listSkill()).toEqual(first);
    expect(memoEntries()).toHaveLength(1);
  });
});
