// What the Skills Extension serves, on a real workspace: servable names, the stage's skills, files, digests, text/MIME.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import {
  decodeText,
  mimeTypeOf,
  readSkillFile,
  servable,
  servedSkills,
  skillEntry,
  skillFiles,
} from "../../runtime/mcp/skill-resources.js";
import type { SkillRecord } from "../../runtime/skills/index.js";
import { type Fixture, GATE_SKILL, makeFixture } from "../tools/helpers.js";

let fixture: Fixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

/** The fixture pack plus a misnamed extra skill, general skills order/a and order/b. */
async function open(options: { useSkill?: boolean } = {}) {
  fixture = makeFixture(options);
  const extra = join(fixture.dir, "extra");
  mkdirSync(join(extra, "misnamed"), { recursive: true });
  writeFileSync(
    join(extra, "misnamed", "SKILL.md"),
    "---\nname: other-name\ndescription: Folder and name differ.\n---\n",
  );
  const config = parse(readFileSync(fixture.configFile, "utf8")) as { skill: Record<string, unknown> };
  config.skill.extra_skill_path = [extra];
  config.skill.general_skill_list = ["order/a", "ext/misnamed", "order/b"];
  writeFileSync(fixture.configFile, stringify(config));
  return fixture.open();
}

const skillOf = (session: Awaited<ReturnType<typeof open>>, id: string): SkillRecord => {
  const skill = session.catalog()?.skills.find((candidate) => candidate.id === id);
  if (!skill) throw new Error(`no skill ${id} in the fixture catalog`);
  return skill;
};

describe("servedSkills", () => {
  it("serves the stage skills then the general ones, leaving out a skill whose name differs from its folder", async () => {
    const session = await open();
    expect((await servedSkills(session)).map(({ skill, stageSkill }) => [skill.id, stageSkill])).toEqual([
      [GATE_SKILL, true],
      ["order/a", false],
      ["order/b", false],
    ]);
    expect(servable(skillOf(session, "ext/misnamed"))).toBe(false);
    expect(servable(skillOf(session, GATE_SKILL))).toBe(true);
  });

  it("serves nothing with skills disabled", async () => {
    const session = await open({ useSkill: false });
    expect(await servedSkills(session)).toEqual([]);
  });
});

describe("skillFiles, readSkillFile and skillEntry", () => {
  it("lists the regular files sorted, and digests exactly the bytes served", async () => {
    const session = await open();
    const skill = skillOf(session, GATE_SKILL);
    const files = await skillFiles(session, skill);
    expect(files).toEqual([
      "SKILL.md",
      "scripts/fail.sh",
      "scripts/helper.ts",
      "scripts/make_report.py",
      "scripts/script_runner.json",
      "scripts/show_env.py",
      "scripts/write_marker.py",
    ]);
    const entry = await skillEntry(session, skill);
    expect(entry.uri).toBe("skill://fixture/gate-skill/SKILL.md");
    expect(entry.frontmatter).toMatchObject({ name: "gate-skill" });
    const skillMd = await readSkillFile(session, skill, "SKILL.md");
    expect(skillMd.equals(readFileSync(join(skill.dir, "SKILL.md")))).toBe(true);
    expect(entry.resources[0]).toEqual({
      uri: "skill://fixture/gate-skill/SKILL.md",
      digest: `sha256:${createHash("sha256").update(skillMd).digest("hex")}`,
    });
    expect(entry.resources.map((resource) => resource.uri)).toHaveLength(files.length);
  });

  it("never follows a symlink out of the skill folder", async () => {
    const session = await open();
    const skill = skillOf(session, "order/a");
    // init leaves the copy read-only; the agent (same user) can make it writable again.
    chmodSync(skill.dir, 0o755);
    symlinkSync("/etc/passwd", join(skill.dir, "passwd"));
    expect(await skillFiles(session, skill)).toEqual(["SKILL.md"]);
    await expect(readSkillFile(session, skill, "passwd")).rejects.toThrow();
  });
});

describe("decodeText and mimeTypeOf", () => {
  it("decodes UTF-8 byte for byte (BOM kept) and gives null for NUL bytes or invalid UTF-8", () => {
    expect(decodeText(Buffer.from("\uFEFFhé\n", "utf8"))).toBe("\uFEFFhé\n");
    expect(decodeText(Buffer.from([0x61, 0x00, 0x62]))).toBeNull();
    expect(decodeText(Buffer.from([0xc3, 0x28]))).toBeNull();
  });

  it.each([
    ["SKILL.md", true, "text/markdown"],
    ["scripts/RUN.PY", true, "text/x-python"],
    ["scripts/helper.ts", true, "text/x-typescript"],
    ["notes", true, "text/plain"],
    ["assets/logo.bin", false, "application/octet-stream"],
    ["data.json", false, "application/json"],
  ])("%s (text: %s) is %s", (file, text, mime) => {
    expect(mimeTypeOf(file, text)).toBe(mime);
  });
});
