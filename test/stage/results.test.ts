// The one result builder: ok/error shapes, warnings attached once, and the skills-disabled / folder-missing answers.
import { describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { RESTORE_SKILLS_HINT } from "../../runtime/evidence/index.js";
import {
  errorResult,
  okResult,
  resultFromError,
  skillRootMissingResult,
  skillsDisabledResult,
  withWarnings,
  workspaceRelative,
} from "../../runtime/stage/results.js";

const paths = { root: "/w/ws", skillsDir: "/w/ws/.ucagent/skills" };

describe("result builders", () => {
  it("ok and error results have one shape; the error's message is its text", () => {
    expect(okResult("done", { a: 1 })).toEqual({ text: "done", structured: { a: 1 }, isError: false });
    expect(errorResult("CHECK_FAILED", "bad", { a: 1 })).toEqual({
      text: "bad",
      structured: { error: { code: "CHECK_FAILED", message: "bad" }, a: 1 },
      isError: true,
      code: "CHECK_FAILED",
    });
  });

  it("a SkillgateError becomes a result; anything else is rethrown (our bug)", () => {
    const result = resultFromError(new SkillgateError("USAGE", "say it", { x: 1 }));
    expect(result).toEqual({
      text: "say it",
      structured: { error: { code: "USAGE", message: "say it" }, details: { x: 1 } },
      isError: true,
      code: "USAGE",
    });
    const bug = new TypeError("boom");
    expect(() => resultFromError(bug)).toThrow(bug);
  });

  it("warnings go on the text as Warning: lines and in JSON; none leaves the result as it was", () => {
    const base = errorResult("CHECK_FAILED", "bad");
    expect(withWarnings(base, [])).toBe(base);
    expect(withWarnings(base, ["one", "two"])).toEqual({
      text: "bad\nWarning: one\nWarning: two",
      structured: { error: { code: "CHECK_FAILED", message: "bad" }, warnings: ["one", "two"] },
      isError: true,
      code: "CHECK_FAILED",
    });
  });

  it("skills disabled: one wording for every tool, not an error", () => {
    expect(skillsDisabledResult("SetSkillUsage")).toEqual({
      text:
        "SetSkillUsage: skill support is disabled (skill.use_skill is false, or --no-use-skill was given), so there is " +
        "nothing to do here. Work from the stage task and its guide_doc, then call Check and Complete. To use skills, " +
        "restart with --use-skill (or set skill.use_skill: true) and run `skillgate init <workspace>`.",
      structured: { disabled: true, reason: "skill support is disabled" },
      isError: false,
      code: "SKILLS_DISABLED",
    });
  });

  it("skill folder missing: the skill tools' answer, and a stage verb's with the stage and Check", () => {
    expect(skillRootMissingResult(paths)).toEqual(
      errorResult(
        "SKILL_ROOT_MISSING",
        `The workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT}`,
        { skill_root: paths.skillsDir },
      ),
    );
    expect(skillRootMissingResult(paths, { tool: "Complete", name: "review" })).toEqual(
      errorResult(
        "SKILL_ROOT_MISSING",
        `Complete: stage 'review' names skills, but the workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT} Check still works meanwhile.`,
        { skill_root: paths.skillsDir },
      ),
    );
  });

  it("paths are shown relative to the workspace with / separators", () => {
    expect(workspaceRelative(paths, "/w/ws/.ucagent/skills/a/SKILL.md")).toBe(".ucagent/skills/a/SKILL.md");
  });
});
