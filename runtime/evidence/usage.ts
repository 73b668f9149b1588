// The SetSkillUsage evidence checker: compares the agent's claims with recorded evidence and accepts or rejects them whole.
import type { ToolName } from "../contracts/index.js";
import type { StageSkillInfo, UsageContext } from "./context.js";
import { flagsOf, type SkillFlags, type UsageClaim } from "./state.js";
import { isTextMethod } from "./text-method.js";

export interface UsageProblem {
  text: string;
  next: ToolName;
}

export type UsageVerdict =
  | { accepted: true; claims: Record<string, UsageClaim>; message: string }
  | { accepted: false; problems: UsageProblem[]; message: string };

const FLAGS = ["list", "read", "use"] as const;
const ALLOWED_FIELDS = new Set<string>([...FLAGS, "reason"]);

/** Evaluates a SetSkillUsage payload (the `skill_usage` mapping) against the evidence; never throws. */
export function evaluateSkillUsage(input: unknown, ctx: UsageContext): UsageVerdict {
  const shape = parseClaims(input, ctx);
  if (!shape.claims) return reject(ctx, shape.problems);
  const problems: UsageProblem[] = [];
  const claimed = ctx.skillList.filter((id) => shape.claims![id] !== undefined);
  for (const id of claimed) {
    const claim = shape.claims[id]!;
    const info = ctx.skills[id];
    if (!info?.present) {
      problems.push({ text: missingSkillText(id, info), next: "Status" });
      continue;
    }
    problems.push(...compareWithEvidence(id, claim, flagsOf(ctx.state, id), info));
  }
  if (!ctx.check.ok) {
    problems.push({
      text: `the current evidence has not passed \`Check\` since it last changed (${ctx.check.reason}).`,
      next: "Check",
    });
  }
  if (problems.length > 0) return reject(ctx, problems);
  const claims = shape.claims;
  const summary = claimed.map((id) => `${id}: ${describeClaim(claims[id]!)}`).join("; ");
  const notApplicable = claimed.filter((id) => claims[id]!.use === false);
  const unreported = ctx.skillList.filter((id) => claims[id] === undefined);
  const head =
    notApplicable.length > 0
      ? `No-applicable-work was recorded for: ${notApplicable.join(", ")}.`
      : unreported.length > 0
        ? `Skill usage recorded for the skills you used (${claimed.join(", ")}).`
        : "All skills in skill_list have been used.";
  const optionalNote =
    unreported.length > 0
      ? ` Not reported (stage '${ctx.stageName}' is optional, force_use_skill is false): ${unreported.join(", ")}.`
      : "";
  return {
    accepted: true,
    claims,
    message: `${head} SetSkillUsage accepted for stage '${ctx.stageName}': ${summary}.${optionalNote} Next: call \`Complete\`.`,
  };
}

function describeClaim(claim: UsageClaim): string {
  return claim.use ? "Used" : `Not Applicable (reason: ${claim.reason})`;
}

function reject(ctx: UsageContext, problems: UsageProblem[]): UsageVerdict {
  const lines = problems.map((p) => `- ${p.text}`);
  const next = problems[0]?.next ?? "SetSkillUsage";
  return {
    accepted: false,
    problems,
    message: [
      `SetSkillUsage rejected for stage '${ctx.stageName}'; nothing was recorded.`,
      ...lines,
      `Next: call \`${next}\`.`,
    ].join("\n"),
  };
}

function parseClaims(
  input: unknown,
  ctx: UsageContext,
): { claims: Record<string, UsageClaim> | null; problems: UsageProblem[] } {
  const expected = ctx.skillList.join(", ");
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return {
      claims: null,
      problems: [
        {
          text: `skill_usage must be a mapping of skill id to {list, read, use, reason?}; got ${describe(input)}.`,
          next: "SetSkillUsage",
        },
      ],
    };
  }
  const entries = Object.entries(input as Record<string, unknown>);
  if (entries.length === 0) {
    return {
      claims: null,
      problems: [
        {
          text: `Skill usage content cannot be empty: give one entry per skill of stage '${ctx.stageName}' (${expected}).`,
          next: "SetSkillUsage",
        },
      ],
    };
  }
  const problems: UsageProblem[] = [];
  const byId = new Map<string, { raw: string; value: unknown }>();
  for (const [raw, value] of entries) {
    const id = ctx.normaliseId(raw);
    if (id === null || !ctx.skillList.includes(id)) {
      problems.push({
        text: `'${raw}' is not in the skill_list of stage '${ctx.stageName}' (${expected}); remove it.`,
        next: "SetSkillUsage",
      });
      continue;
    }
    const earlier = byId.get(id);
    if (earlier) {
      problems.push({
        text: `'${earlier.raw}' and '${raw}' name the same skill '${id}'; give it once.`,
        next: "SetSkillUsage",
      });
      continue;
    }
    byId.set(id, { raw, value });
  }
  for (const id of ctx.optional ? [] : ctx.skillList) {
    if (!byId.has(id)) {
      problems.push({
        text: `skill_usage has no entry for '${id}'. You must use skill '${id}' in current stage, using tool \`ListSkill\` to list and use it, then report it here.`,
        next: nextStepFor(flagsOf(ctx.state, id)),
      });
    }
  }
  const claims: Record<string, UsageClaim> = {};
  for (const [id, { raw, value }] of byId) {
    const claim = parseClaim(raw, value, problems);
    if (claim) claims[id] = claim;
  }
  return problems.length > 0 ? { claims: null, problems } : { claims, problems };
}

function parseClaim(raw: string, value: unknown, problems: UsageProblem[]): UsageClaim | null {
  const where = `skill_usage['${raw}']`;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    problems.push({
      text: `${where} must be a mapping {list, read, use, reason?}; got ${describe(value)}.`,
      next: "SetSkillUsage",
    });
    return null;
  }
  const record = value as Record<string, unknown>;
  const before = problems.length;
  for (const field of Object.keys(record)) {
    if (!ALLOWED_FIELDS.has(field)) {
      problems.push({
        text: `${where} has unknown field '${field}'; allowed fields: list, read, use, reason.`,
        next: "SetSkillUsage",
      });
    }
  }
  for (const flag of FLAGS) {
    if (!(flag in record)) {
      problems.push({ text: `${where}.${flag} is missing; set it to true or false.`, next: "SetSkillUsage" });
    } else if (typeof record[flag] !== "boolean") {
      problems.push({
        text: `${where}.${flag} must be true or false; got ${describe(record[flag])}.`,
        next: "SetSkillUsage",
      });
    }
  }
  const hasReason = "reason" in record && record.reason !== undefined;
  if (hasReason && (typeof record.reason !== "string" || record.reason.trim().length === 0)) {
    problems.push({
      text: `${where}.reason must be a non-blank string saying why the skill does not apply; got ${describe(record.reason)}.`,
      next: "SetSkillUsage",
    });
  }
  if (problems.length > before) return null;
  const claim: UsageClaim = {
    list: record.list as boolean,
    read: record.read as boolean,
    use: record.use as boolean,
  };
  if (claim.use && hasReason) {
    problems.push({
      text: `${where} has use: true with a reason; a reason is only for use: false, remove it.`,
      next: "SetSkillUsage",
    });
    return null;
  }
  if (!claim.use && !hasReason) {
    problems.push({
      text: `${where} has use: false without a reason; add reason: why the skill does not apply to this stage.`,
      next: "SetSkillUsage",
    });
    return null;
  }
  if (!claim.use) claim.reason = (record.reason as string).trim();
  return claim;
}

function compareWithEvidence(
  id: string,
  claim: UsageClaim,
  flags: SkillFlags,
  info: StageSkillInfo,
): UsageProblem[] {
  const where = `skill_usage['${id}']`;
  const problems: UsageProblem[] = [];
  if (claim.list && !flags.list) {
    problems.push({
      text: `${where}.list is true but no ListSkill call listed '${id}' in this stage.`,
      next: "ListSkill",
    });
  } else if (!claim.list && flags.list) {
    problems.push({
      text: `${where}.list is false but ListSkill listed '${id}' in this stage; set list: true.`,
      next: "SetSkillUsage",
    });
  } else if (!flags.list) {
    problems.push({
      text: `You must re-complete the stage by using tool \`ListSkill\` to list and use the skill ${id}.`,
      next: "ListSkill",
    });
  }
  const coverage = describeCoverage(flags);
  if (claim.read && !flags.read) {
    problems.push({
      text: `${where}.read is true but ${info.skillFile} was not read in full in this stage (${coverage}); read it with \`ReadTextFile\` (path ${info.skillFile}), then report again.`,
      next: "ReadTextFile",
    });
  } else if (!claim.read && flags.read) {
    problems.push({
      text: `${where}.read is false but ReadTextFile read the whole ${info.skillFile} in this stage; set read: true.`,
      next: "SetSkillUsage",
    });
  } else if (!flags.read) {
    problems.push({
      text: `You must re-complete the stage by using tool \`ReadTextFile\` to read the SKILL.md of skill ${id} and use it (${info.skillFile}, ${coverage}).`,
      next: "ReadTextFile",
    });
  }
  if (!claim.use && flags.use) {
    problems.push({
      text: `${where}.use is false but RunSkillScript ran the scripts of '${id}' successfully in this stage; set use: true and remove the reason.`,
      next: "SetSkillUsage",
    });
  } else if (claim.use && !flags.use && !isTextMethod(info)) {
    problems.push({
      text: `${where}.use is true but no successful RunSkillScript call ran a script of '${id}' (${info.scripts.join(", ")}) in this stage. You must re-complete the stage by using the skill ${id} according to the method steps mentioned in its SKILL.md, or set use: false with a reason.`,
      next: "RunSkillScript",
    });
  }
  return problems;
}

/** The tool that gathers the first piece of evidence still missing (never a claim the agent could copy). */
function nextStepFor(flags: SkillFlags): ToolName {
  if (!flags.list) return "ListSkill";
  if (!flags.read) return "ReadTextFile";
  return "SetSkillUsage";
}

export function describeCoverage(flags: SkillFlags): string {
  if (flags.read) return `all ${flags.totalLines} lines read`;
  if (flags.readRanges.length === 0) return "no lines read yet";
  const parts = flags.readRanges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  return `read lines ${parts.join(", ")} of ${flags.totalLines}`;
}

/**
 * How to get the workspace skill copy back, in words that hold: init re-copies it and the running tools see it at
 * once; `serve` restores it at start. No absolute host path: the agent reads this.
 */
export const RESTORE_SKILLS_HINT =
  "To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path " +
  "flags this session was started with (the running tools pick the copy up at once, no restart needed), or " +
  "restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill.";

export function missingSkillText(id: string, info: StageSkillInfo | undefined): string {
  const file = info?.skillFile ?? `.ucagent/skills/${id}/SKILL.md`;
  return `skill '${id}' of this stage is not in the workspace skill folder (${file} is missing or no longer parses). ${RESTORE_SKILLS_HINT}`;
}

export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array ${JSON.stringify(value)}`;
  if (typeof value === "string") return `${JSON.stringify(value)} (string)`;
  if (typeof value === "object") return `object ${JSON.stringify(value)}`;
  if (value === undefined) return "nothing";
  return `${String(value)} (${typeof value})`;
}
