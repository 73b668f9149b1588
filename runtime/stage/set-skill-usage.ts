// The SetSkillUsage verb: the agent's {list, read, use, reason?} claims checked against the evidence, recorded whole or not at all.

import type { ToolResult } from "../contracts/index.js";
import { evaluateSkillUsage } from "../evidence/index.js";
import { normaliseSkillId } from "../skills/index.js";
import type { StageContext } from "./context.js";
import { checkFreshness } from "./freshness.js";
import { errorResult, okResult, skillRootMissingResult, skillsDisabledResult } from "./results.js";

export async function setSkillUsage(ctx: StageContext, input: unknown): Promise<ToolResult> {
  if (!ctx.o.skillsEnabled) return skillsDisabledResult("SetSkillUsage");
  const snap = await ctx.load();
  const stage = ctx.stageAt(snap.state);
  if (!stage) return ctx.finishedResult("SetSkillUsage");
  const changed = await ctx.bindingGuard(snap.state);
  if (changed) return changed;
  const base = { stage: { index: stage.index, name: stage.config.name } };
  const skillList = ctx.skillList(stage.index);
  if (skillList.length === 0) {
    return okResult(
      `No skill need be used in current stage: stage '${stage.config.name}' has no skill_list, so there is nothing to record. Next: call \`Check\`, then \`Complete\`.`,
      { accepted: false, nothing_to_record: true, ...base },
    );
  }
  const catalog = ctx.o.catalog();
  if (!catalog)
    return skillRootMissingResult(ctx.o.paths, { tool: "SetSkillUsage", name: stage.config.name });
  const skills = ctx.skillInfo(skillList, catalog);
  const outputs = await ctx.outputs(stage.config);
  const { snapshot, result } = await ctx.ledger.transact((fresh) => {
    const verdict = evaluateSkillUsage(input, {
      stageName: stage.config.name,
      stageIndex: stage.index,
      skillList,
      skills,
      state: fresh.state,
      check: checkFreshness(fresh.state, outputs),
      fingerprint: outputs.hash,
      normaliseId: normaliseSkillId,
      optional: !stage.config.force_use_skill,
    });
    const data: Record<string, unknown> = verdict.accepted
      ? {
          accepted: true,
          claims: verdict.claims,
          evidenceVersion: fresh.state.evidenceVersion,
          fingerprint: outputs.hash,
          files: outputs.files,
        }
      : { accepted: false, problems: verdict.problems.map((p) => p.text) };
    return { records: [{ stage: stage.index, kind: "set_skill_usage", data }], result: verdict };
  });
  ctx.absorb(snapshot);
  if (!result.accepted) {
    return errorResult("SKILL_USAGE_REJECTED", result.message, {
      ...base,
      accepted: false,
      problems: result.problems,
      next_tool: result.problems[0]?.next,
    });
  }
  return okResult(result.message, {
    ...base,
    accepted: true,
    skill_usage: result.claims,
    next_tool: "Complete",
  });
}
