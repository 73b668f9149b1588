// openSession on real workspaces: init on first open, flags over config, bad config and flag conflicts as errors.
import { writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openSession } from "../../runtime/tools/session.js";
import { type Fixture, makeFixture } from "./helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("openSession", () => {
  it("initialises a new workspace on first open, and only then", async () => {
    fixture = makeFixture();
    const first = await fixture.open();
    expect(first.initialised).toBe(true);
    expect(first.initReport?.skills).toContain("fixture/gate-skill");
    expect(first.configSources).toContain(fixture.configFile);
    expect(first.skillsEnabled).toBe(true);
    const second = await fixture.open();
    expect(second.initialised).toBe(false);
    expect(second.initReport).toBeUndefined();
  });

  it("--no-use-skill (as typed) turns skills off over a config that enables them; the last flag wins", async () => {
    fixture = makeFixture();
    expect((await fixture.open({ argvFlags: ["--no-use-skill"] })).skillsEnabled).toBe(false);
    expect((await fixture.open({ argvFlags: ["--no-use-skill", "--use-skill"] })).skillsEnabled).toBe(true);
  });

  it("--extra-skill-path with --no-use-skill is FLAG_CONFLICT, before the path is looked at", async () => {
    fixture = makeFixture();
    await expect(
      fixture.open({ argvFlags: ["--extra-skill-path", "/no/such", "--no-use-skill"] }),
    ).rejects.toMatchObject({
      code: "FLAG_CONFLICT",
      message: "--extra-skill-path cannot be used with --no-use-skill",
    });
  });

  it("an invalid config file is CONFIG_INVALID naming the file and key, never a silent fallback", async () => {
    fixture = makeFixture();
    writeFileSync(fixture.configFile, "skill:\n  use_skill: 'no'\n");
    const opened = openSession({ workspace: fixture.ws, configFile: fixture.configFile, env: fixture.env });
    await expect(opened).rejects.toMatchObject({ code: "CONFIG_INVALID" });
    await expect(opened).rejects.toThrow(`${fixture.configFile}:2: skill.use_skill: expected a boolean`);
  });

  it("fileTools: false (serve --no-file-tools) is kept on the session, leaving the config as it was", async () => {
    fixture = makeFixture();
    const plain = await fixture.open();
    expect(plain.fileTools).toBeUndefined();
    const off = await fixture.open({ fileTools: false } as never);
    expect(off.fileTools).toBe(false);
    expect(off.config.file_tools).toBe(true);
  });
});
