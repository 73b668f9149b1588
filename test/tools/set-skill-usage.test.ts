// SetSkillUsage (and the other stage tools) through the real tool registry: the JSON-string mapping, bad input, skills off.
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import type { Session } from "../../runtime/tools/types.js";
import { makeWorkspace, type TestWorkspace, wholeFile } from "../stage/helpers.js";

const TEXT = "review/text-method";
let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

async function session(skillsEnabled = true): Promise<Session> {
  ws = await makeWorkspace({
    stages: [
      {
        name: "review",
        output_files: ["out/report.md"],
        checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
        skill_list: [TEXT],
      },
    ],
    skillsEnabled,
  });
  await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
  const engine = await ws.engine();
  return {
    paths: ws.paths,
    config: ws.config,
    runtime: ws.runtime,
    skillsEnabled,
    catalog: ws.catalog,
    engine,
  };
}

describe("stage tools", () => {
  it("SetSkillUsage accepts the mapping as an object or as a JSON string", async () => {
    const s = await session();
    await s.engine.recordList([TEXT]);
    await s.engine.recordRead(TEXT, wholeFile(9));
    expect((await callTool(s, "Check", {})).isError).toBe(false);
    const claims = { [TEXT]: { list: true, read: true, use: true } };
    const asString = await callTool(s, "SetSkillUsage", { skill_usage: JSON.stringify(claims) });
    expect(asString.isError).toBe(false);
    expect(asString.structured.skill_usage).toEqual(claims);
    expect((await callTool(s, "SetSkillUsage", { skill_usage: claims })).isError).toBe(false);
    expect((await callTool(s, "Complete", {})).structured.finished).toBe(true);
  });

  it("bad arguments are INVALID_ARGS results, not throws", async () => {
    const s = await session();
    const notJson = await callTool(s, "SetSkillUsage", { skill_usage: "{not json" });
    expect(notJson.code).toBe("INVALID_ARGS");
    expect((await callTool(s, "SetSkillUsage", {})).code).toBe("INVALID_ARGS");
    expect((await callTool(s, "Check", { target: "x" })).code).toBe("INVALID_ARGS");
    expect((await callTool(s, "Status", { verbose: true })).code).toBe("INVALID_ARGS");
  });

  it("with skills disabled SetSkillUsage is not an error and Check/Complete/Status work", async () => {
    const s = await session(false);
    const usage = await callTool(s, "SetSkillUsage", { skill_usage: { [TEXT]: {} } });
    expect(usage.isError).toBe(false);
    expect(usage.text).toContain("skill support is disabled");
    expect((await callTool(s, "Status", {})).isError).toBe(false);
    expect((await callTool(s, "Check", {})).isError).toBe(false);
    expect((await callTool(s, "Complete", {})).isError).toBe(false);
  });

  it("with the skill folder missing it refuses and says how to restore it; Check still works", async () => {
    const s = await session();
    await rm(s.paths.skillsDir, { recursive: true, force: true });
    const usage = await callTool(s, "SetSkillUsage", {
      skill_usage: { [TEXT]: { list: true, read: true, use: true } },
    });
    expect(usage).toMatchObject({ isError: true, code: "SKILL_ROOT_MISSING" });
    expect(usage.text).toBe(
      "SetSkillUsage: stage 'review' names skills, but the workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path flags this session was started with (the running tools pick the copy up at once, no restart needed), or restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill. Check still works meanwhile.",
    );
    expect((await callTool(s, "Check", {})).isError).toBe(false);
  });

  it("rejects an empty mapping and a skill outside the stage, recording nothing", async () => {
    const s = await session();
    const empty = await callTool(s, "SetSkillUsage", { skill_usage: {} });
    expect(empty).toMatchObject({ isError: true, code: "SKILL_USAGE_REJECTED" });
    expect(empty.text).toBe(
      `SetSkillUsage rejected for stage 'review'; nothing was recorded.\n- Skill usage content cannot be empty: give one entry per skill of stage 'review' (${TEXT}).\nNext: call \`SetSkillUsage\`.`,
    );
    const foreign = await callTool(s, "SetSkillUsage", {
      skill_usage: {
        [TEXT]: { list: false, read: false, use: false, reason: "n/a" },
        "x/y": { list: true, read: true, use: true },
      },
    });
    expect(foreign).toMatchObject({ isError: true, code: "SKILL_USAGE_REJECTED" });
    expect(foreign.text).toContain(
      `- 'x/y' is not in the skill_list of stage 'review' (${TEXT}); remove it.`,
    );
  });
});
