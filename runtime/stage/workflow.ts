// Load-time validation of the workflow: stage names, strict force_use_skill, checker args and skill_list entries.
import { SkillgateError } from "../errors.js";
import type { CatalogSnapshot, Diagnostic } from "../skills/index.js";
import { checkerArgProblems } from "./checkers/index.js";
import { error, kind } from "./workflow-diagnostics.js";
import { checkGeneralSkills, checkSkillList } from "./workflow-skills.js";

/** The part of the config the workflow check reads; raw (unvalidated) data is accepted and checked defensively. */
export interface WorkflowInput {
  stage?: unknown;
  skill?: { general_skill_list?: unknown; enable_skill_list?: unknown; disable_skill_list?: unknown };
}

/**
 * Diagnostics for the workflow (errors and warnings); empty when it is sound. Skills disabled: skill_list and
 * general_skill_list are ignored, not validated. Never throws.
 */
export function validateWorkflow(
  config: WorkflowInput,
  catalog: CatalogSnapshot | null,
  skillsEnabled: boolean,
  options: { rootLabel?: string } = {},
): Diagnostic[] {
  const rootLabel = options.rootLabel ?? catalog?.root ?? ".ucagent/skills";
  const out: Diagnostic[] = [];
  if (!Array.isArray(config.stage)) {
    out.push(
      error(
        "stage",
        "WORKFLOW_INVALID",
        `stage must be a list of stages; got ${kind(config.stage)}. Write stage: followed by '- name: ...' entries.`,
      ),
    );
    return out;
  }
  const seen = new Map<string, number>();
  let rootReported = false;
  config.stage.forEach((raw, index) => {
    const at = `stage[${index}]`;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      out.push(
        error(
          at,
          "STAGE_INVALID",
          `${at} must be a mapping with name, task, checker, ...; got ${kind(raw)}.`,
        ),
      );
      return;
    }
    const stage = raw as Record<string, unknown>;
    const name = typeof stage.name === "string" && stage.name.length > 0 ? stage.name : null;
    const label = name ? `stage '${name}' (${at})` : at;
    if (!name)
      out.push(
        error(
          `${at}.name`,
          "STAGE_NAME_MISSING",
          `${at}: name must be a non-empty string; got ${kind(stage.name)}. Give the stage a unique name.`,
        ),
      );
    else if (seen.has(name)) {
      out.push(
        error(
          `${at}.name`,
          "STAGE_NAME_DUPLICATE",
          `${label}: the name '${name}' is already used by stage[${seen.get(name)}]; stage names must be unique, rename one.`,
        ),
      );
    } else seen.set(name, index);
    if (
      "force_use_skill" in stage &&
      stage.force_use_skill !== undefined &&
      typeof stage.force_use_skill !== "boolean"
    ) {
      out.push(
        error(
          `${at}.force_use_skill`,
          "FORCE_USE_SKILL_NOT_BOOLEAN",
          `${label}: force_use_skill must be true or false; got ${kind(stage.force_use_skill)}. Write force_use_skill: ${guessBoolean(stage.force_use_skill)} (a YAML boolean, no quotes).`,
        ),
      );
    }
    checkCheckers(stage.checker, at, label, out);
    if (!skillsEnabled) return;
    const rootMissing = checkSkillList(
      stage.skill_list,
      at,
      label,
      name ?? at,
      catalog,
      out,
      rootReported,
      config.skill,
      rootLabel,
    );
    rootReported ||= rootMissing;
  });
  if (skillsEnabled && catalog) checkGeneralSkills(config.skill?.general_skill_list, catalog, out, rootLabel);
  return out;
}

function checkCheckers(raw: unknown, at: string, label: string, out: Diagnostic[]): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) {
    out.push(
      error(
        `${at}.checker`,
        "CHECKER_INVALID",
        `${label}: checker must be a list of {kind, args}; got ${kind(raw)}.`,
      ),
    );
    return;
  }
  raw.forEach((checker, i) => {
    const where = `${at}.checker[${i}]`;
    if (
      checker === null ||
      typeof checker !== "object" ||
      typeof (checker as { kind?: unknown }).kind !== "string"
    ) {
      out.push(
        error(
          where,
          "CHECKER_INVALID",
          `${label} checker[${i}]: must be a mapping with a kind; got ${kind(checker)}.`,
        ),
      );
      return;
    }
    const c = checker as { kind: string; args?: unknown };
    const problems = checkerArgProblems(c);
    if (problems.length > 0) {
      out.push(
        error(
          where,
          "CHECKER_ARGS_INVALID",
          `${label} checker[${i}] (${c.kind}): ${problems.join("; ")}. Fix the checker's args (see docs/formats.md, Checker kinds).`,
        ),
      );
    }
  });
}

/** Errors that stop `init`, `serve` and `call` at once (UCAgent raises them when it builds the stages). */
export function fatalWorkflowErrors(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === "error" && d.code !== "SKILL_ROOT_MISSING");
}

/** Throws WORKFLOW_INVALID listing every fatal workflow error; a missing skill folder is left to the tools. */
export function assertWorkflowStartable(diagnostics: Diagnostic[], where: string): void {
  const fatal = fatalWorkflowErrors(diagnostics);
  if (fatal.length === 0) return;
  throw new SkillgateError(
    "WORKFLOW_INVALID",
    [
      `the workflow of ${where} cannot start (${fatal.length} error${fatal.length === 1 ? "" : "s"}):`,
      ...fatal.map((d) => `  - ${d.message}`),
      "Fix the stage config (skill_list entries are paths below the workspace skill folder) and start again.",
    ].join("\n"),
    { diagnostics: fatal },
  );
}

function guessBoolean(value: unknown): string {
  const text = String(value).trim().toLowerCase();
  return ["false", "0", "no", "off", "n", "null", ""].includes(text) ? "false" : "true";
}
