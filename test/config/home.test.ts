// skillgate's per-user folder (runtime/config/home.ts): $SKILLGATE_HOME when set and non-empty, else ~/.skillgate.
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { skillgateHome, userConfigFile } from "../../runtime/config/home.js";

describe("skillgateHome", () => {
  it("uses SKILLGATE_HOME when set", () => {
    expect(skillgateHome({ SKILLGATE_HOME: "/srv/sg-home" })).toBe("/srv/sg-home");
    expect(userConfigFile({ SKILLGATE_HOME: "/srv/sg-home" })).toBe("/srv/sg-home/config.yaml");
  });

  it("falls back to ~/.skillgate when unset or empty (an empty variable never means the current folder)", () => {
    for (const env of [{}, { SKILLGATE_HOME: "" }]) {
      expect(skillgateHome(env)).toBe(join(homedir(), ".skillgate"));
      expect(userConfigFile(env)).toBe(join(homedir(), ".skillgate", "config.yaml"));
    }
  });

  it("reads process.env by default (the tests' own isolated home)", () => {
    const saved = process.env.SKILLGATE_HOME;
    process.env.SKILLGATE_HOME = "/tmp/sg-mirror-skills-home";
    try {
      expect(skillgateHome()).toBe("/tmp/sg-mirror-skills-home");
      expect(userConfigFile()).toBe("/tmp/sg-mirror-skills-home/config.yaml");
    } finally {
      if (saved === undefined) delete process.env.SKILLGATE_HOME;
      else process.env.SKILLGATE_HOME = saved;
    }
  });
});
