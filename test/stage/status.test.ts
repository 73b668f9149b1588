// The Status verb through the engine: stages, per-skill flags, gate, disabled and missing-folder variants.
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { RESTORE_SKILLS_HINT } from "../../runtime/evidence/index.js";
import { cleanup, forcedStage, PLAIN_STAGE, SCRIPT, setup, TEXT, ws } from "./engine-fixture.js";

afterEach(cleanup);

describe("Status", () => {
  it("shows stages, the current stage and per-skill flags; disabled and missing-folder variants", async () => {
    await setup([forcedStage(), PLAIN_STAGE]);
    const engine = await ws!.engine();
    await engine.recordList([TEXT]);
    const status = await engine.status();
    expect(status.text).toBe(
      [
        "Progress: 0/2 stages completed; current stage 0: 'review'.",
        "Stages:",
        "  [>] 0. review (current)",
        "  [ ] 1. plain (pending)",
        "Description: Review the target",
        "Tasks:",
        "  - Write out/report.md",
        "Stage skills (Complete is gated on them):",
        `  - ${TEXT}: Listed yes, Read no (no lines read yet), Used no, Not Applicable no`,
        `  - ${SCRIPT}: Listed no, Read no (no lines read yet), Used no, Not Applicable no`,
        "Check: not passed (`Check` has not run on the current evidence of this stage).",
        "SetSkillUsage: not validated (SetSkillUsage has not accepted a usage report in this stage).",
        "Before Complete:",
        `  - ${TEXT}: read .ucagent/skills/${TEXT}/SKILL.md with \`ReadTextFile\`; apply its method, then report use: true with \`SetSkillUsage\` (or use: false with a reason)`,
        `  - ${SCRIPT}: call \`ListSkill\`; read .ucagent/skills/${SCRIPT}/SKILL.md with \`ReadTextFile\`; run its script with \`RunSkillScript\` (or report use: false with a reason via \`SetSkillUsage\`)`,
        "  - next: ListSkill({}), then `Check` and `SetSkillUsage`",
        `Evidence ledger: ok (4 records, key ${(status.structured.ledger as { fingerprint: string }).fingerprint}, workflow and pack bound at record 3 by first start).`,
      ].join("\n"),
    );
    expect(status.structured.gate).toMatchObject({
      applies: true,
      ok: false,
      code: "SKILL_USAGE_INCOMPLETE",
    });
    await rm(ws!.paths.skillsDir, { recursive: true, force: true });
    const missing = await engine.status();
    expect(missing.text).toContain(
      `\n  The workspace skill folder .ucagent/skills is missing. ${RESTORE_SKILLS_HINT}\n`,
    );
    expect(missing.text).toContain(
      `\n  - ${TEXT}: missing, with the whole skill folder (restore it as said above)\n`,
    );
    expect(missing.text).toContain(
      `  - ${TEXT}: Listed yes, Read no (no lines read yet), Used no, Not Applicable no [missing from the workspace skill folder]`,
    );
  });

  it("with skills disabled says so and lists no skills", async () => {
    await setup([forcedStage(), PLAIN_STAGE], { skillsEnabled: false });
    const engine = await ws!.engine();
    const status = await engine.status();
    expect(status.text).toContain(
      "Skills: skill support is disabled; complete the stage from its tasks and checkers.",
    );
    expect(status.structured.skills).toEqual([]);
    expect(status.structured.gate).toEqual({ applies: false });
  });
});
