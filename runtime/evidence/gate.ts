// The Complete skill gate: every stage skill listed, read and used (or validated not applicable), and the usage validated.
import type { ErrorCode } from "../errors.js";
import type { Freshness, StageSkillInfo } from "./context.js";
import { type EvidenceState, flagsOf, type UsageClaim } from "./state.js";
import { countsAsUsed, isTextMethod } from "./text-method.js";
import { missingSkillText } from "./usage.js";

export interface GateSkillStatus {
  id: string;
  list: boolean;
  read: boolean;
  use: boolean;
  notApplicable: boolean;
  missing: string[];
}

export type GateVerdict =
  | { ok: true }
  | {
      ok: false;
      code: Extract<ErrorCode, "SKILL_USAGE_INCOMPLETE" | "SKILL_USAGE_NOT_VALIDATED" | "SKILL_NOT_FOUND">;
      skills: GateSkillStatus[];
      nextAction: string;
      message: string;
    };

export interface GateContext {
  stageName: string;
  skillList: string[];
  skills: Record<string, StageSkillInfo>;
  state: EvidenceState;
  /** Is the last accepted SetSkillUsage still valid for the current evidence and outputs? */
  usage: Freshness;
}

/** Decides whether Complete may run the checkers. Pure. */
export function evaluateGate(ctx: GateContext): GateVerdict {
  const claims = ctx.state.usage?.claims ?? {};
  const statuses = ctx.skillList.map((id) => skillStatus(id, ctx, claims[id]));
  const nextAction = expectedCall(ctx, statuses);
  const absent = ctx.skillList.filter((id) => !ctx.skills[id]?.present);
  if (absent.length > 0) {
    return {
      ok: false,
      code: "SKILL_NOT_FOUND",
      skills: statuses,
      nextAction,
      message: [
        `Stage '${ctx.stageName}' cannot complete: its skill gate needs skills that are missing from the workspace.`,
        ...absent.map((id) => `- ${missingSkillText(id, ctx.skills[id])}`),
      ].join("\n"),
    };
  }
  const incomplete = statuses.filter((s) => s.missing.length > 0);
  if (incomplete.length > 0) {
    return {
      ok: false,
      code: "SKILL_USAGE_INCOMPLETE",
      skills: incomplete,
      nextAction,
      message: [
        `${firstStep(incomplete[0]!, ctx)} Stage '${ctx.stageName}' has incomplete skill evidence (no checker was run):`,
        ...incomplete.map(
          (s) =>
            `- ${s.id}: Listed ${yesNo(s.list)}, Read ${yesNo(s.read)}, Used ${yesNo(s.use)}, Not Applicable ${yesNo(s.notApplicable)} -> ${s.missing.join("; ")}`,
        ),
        `Next: ${nextAction}; then \`Check\` and record the usage with \`SetSkillUsage\`.`,
      ].join("\n"),
    };
  }
  if (!ctx.usage.ok) {
    return {
      ok: false,
      code: "SKILL_USAGE_NOT_VALIDATED",
      skills: statuses,
      nextAction,
      message: [
        `Call \`Check\`, then record the skill usage with \`SetSkillUsage\` before completing stage '${ctx.stageName}': its skill usage is not validated for the current evidence (${ctx.usage.reason}); no checker was run.`,
        `Call \`Check\`, then: ${nextAction}`,
      ].join("\n"),
    };
  }
  return { ok: true };
}

function skillStatus(id: string, ctx: GateContext, claim: UsageClaim | undefined): GateSkillStatus {
  const flags = flagsOf(ctx.state, id);
  const info = ctx.skills[id];
  const textMethod = isTextMethod(info);
  const use = countsAsUsed(flags.use, textMethod, claim);
  const notApplicable = claim?.use === false && Boolean(claim.reason);
  const missing: string[] = [];
  if (!flags.list) missing.push("call `ListSkill`");
  if (!flags.read) missing.push(`read ${info?.skillFile ?? `SKILL.md of ${id}`} with \`ReadTextFile\``);
  if (!use && !notApplicable) {
    missing.push(
      textMethod
        ? "apply its method, then report use: true with `SetSkillUsage` (or use: false with a reason)"
        : "run its script with `RunSkillScript` (or report use: false with a reason via `SetSkillUsage`)",
    );
  }
  return { id, list: flags.list, read: flags.read, use, notApplicable, missing };
}

/** The gate's first sentence: the first missing step of the first incomplete skill, by tool name. */
function firstStep(s: GateSkillStatus, ctx: GateContext): string {
  const file = ctx.skills[s.id]?.skillFile ?? `the SKILL.md of ${s.id}`;
  if (!s.list) return `Use tool \`ListSkill\` to list skill ${s.id} before completing this stage.`;
  if (!s.read) return `Use tool \`ReadTextFile\` to read ${file} in full before completing this stage.`;
  return !isTextMethod(ctx.skills[s.id])
    ? `Run a script of skill ${s.id} with \`RunSkillScript\` as its SKILL.md says (or report use: false with a reason via \`SetSkillUsage\`) before completing this stage.`
    : `Apply the method of skill ${s.id}, then report it with \`SetSkillUsage\` before completing this stage.`;
}

/**
 * The call the agent should make next: the tool that gathers missing list/read/use evidence first; the
 * SetSkillUsage call only once nothing is missing. Never a use:false claim for a skill without evidence.
 */
function expectedCall(ctx: GateContext, statuses: GateSkillStatus[]): string {
  const unlisted = statuses.find((s) => !s.list);
  if (unlisted) return "ListSkill({})";
  const unread = statuses.find((s) => !s.read);
  if (unread) {
    const path = ctx.skills[unread.id]?.skillFile ?? `.ucagent/skills/${unread.id}/SKILL.md`;
    return `ReadTextFile(${JSON.stringify({ path })})`;
  }
  const unused = statuses.find((s) => !s.use && !s.notApplicable && !isTextMethod(ctx.skills[s.id]));
  if (unused) {
    const scripts = ctx.skills[unused.id]!.scripts;
    return `RunSkillScript(${JSON.stringify({ commands: [[unused.id, scripts[0], "<args from its SKILL.md>"]] })})`;
  }
  const usage: Record<string, Record<string, unknown>> = {};
  for (const s of statuses) {
    const use = s.use || (isTextMethod(ctx.skills[s.id]) && !s.notApplicable);
    const entry: Record<string, unknown> = { list: true, read: true, use };
    if (!use)
      entry.reason = ctx.state.usage?.claims[s.id]?.reason ?? "<why this skill does not apply to this stage>";
    usage[s.id] = entry;
  }
  return `SetSkillUsage(${JSON.stringify({ skill_usage: usage })})`;
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}
