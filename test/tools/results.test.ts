// The skill tools' result builders over a Session: the missing-skill-folder result and workspace-relative paths.
import { describe, expect, it } from "vitest";
import { skillRootMissingResult, workspaceRelative } from "../../runtime/tools/results.js";

const paths = { root: "/work/ws", skillsDir: "/work/ws/.ucagent/skills" };

describe("skillRootMissingResult", () => {
  it("is SKILL_ROOT_MISSING with the fix (init in the workspace, restart serve, or --no-use-skill), naming the folder relative", () => {
    const result = skillRootMissingResult({ paths: paths as never });
    expect(result).toMatchObject({
      isError: true,
      code: "SKILL_ROOT_MISSING",
      text: "The workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path flags this session was started with (the running tools pick the copy up at once, no restart needed), or restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill.",
    });
    expect(result.structured).toMatchObject({ skill_root: paths.skillsDir });
    expect(result.text).not.toContain("/work/ws");
  });
});

describe("workspaceRelative", () => {
  it.each([
    ["/work/ws/.ucagent/skills/a/SKILL.md", ".ucagent/skills/a/SKILL.md"],
    ["/work/ws", ""],
    ["/work/other/x", "../other/x"],
  ])("%s is %j", (absolute, rel) => {
    expect(workspaceRelative({ paths: paths as never }, absolute)).toBe(rel);
  });
});
