// Load-time validation of the workflow: stage names, strict force_use_skill, checker args and skill_list entries.
import { isAbsolute, join, relative, sep } from "node:path";
import { nearestNames } from "../contracts/index.js";
import { SkillgateError } from "../errors.js";
import type { CatalogSnapshot, Diagnostic } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { checkerArgProblems } from "./checkers/index.js";

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
          `${label} checker[${i}] (${c.kind}): ${problems.join("; ")}. Fix the checker's args (see README, checker kinds).`,
        ),
      );
    }
  });
}

/** Returns true when it reported the skill root missing. Messages start with UCAgent's own sentence. */
function checkSkillList(
  raw: unknown,
  at: string,
  label: string,
  stageName: string,
  catalog: CatalogSnapshot | null,
  out: Diagnostic[],
  rootAlreadyReported: boolean,
  copyFilters: CopyFilters | undefined,
  rootLabel: string,
): boolean {
  if (raw === undefined || raw === null) return false;
  const ucagent = `Stage '${stageName}'`;
  if (!Array.isArray(raw)) {
    out.push(
      error(
        `${at}.skill_list`,
        "SKILL_LIST_INVALID",
        `${ucagent} skill_list must be a list. (${at}.skill_list is ${kind(raw)}; write skill_list: followed by '- group/skill-name' entries.)`,
      ),
    );
    return false;
  }
  if (raw.length === 0) return false;
  if (!catalog) {
    if (!rootAlreadyReported) {
      out.push(
        error(
          `${at}.skill_list`,
          "SKILL_ROOT_MISSING",
          `${label} names skills (${raw.map(String).join(", ")}) but the workspace skill folder is missing; run \`skillgate init <workspace>\`, or start with --no-use-skill to work without skills.`,
        ),
      );
    }
    return true;
  }
  const ids = new Map<string, number>();
  raw.forEach((entry, i) => {
    const where = `${at}.skill_list[${i}]`;
    if (typeof entry !== "string") {
      out.push(
        error(
          where,
          "SKILL_ID_INVALID",
          `${ucagent} skill_list item must be a string: ${JSON.stringify(entry) ?? String(entry)} (${where} is ${kind(entry)}; write the skill id as a string, e.g. 'review/static-bug-analysis').`,
        ),
      );
      return;
    }
    const item = entry.trim();
    if (item.length === 0) {
      out.push(
        error(
          where,
          "SKILL_ID_INVALID",
          `${ucagent} skill_list contains an empty skill name. (${where}; remove it or write a skill id.)`,
        ),
      );
      return;
    }
    const id = normaliseSkillId(entry);
    if (id === null) {
      out.push(
        error(
          where,
          "SKILL_ID_OUTSIDE_ROOT",
          `${ucagent} skill '${item}' is outside the workspace skill directory. (${where}: absolute paths and '..' are not allowed; use the path below ${rootLabel}, e.g. 'review/static-bug-analysis'.)`,
        ),
      );
      return;
    }
    if (ids.has(id)) {
      out.push(
        warning(
          where,
          "SKILL_ID_DUPLICATE",
          `${label} skill_list[${i}]: '${entry}' names '${id}' again (skill_list[${ids.get(id)}]); remove the duplicate.`,
        ),
      );
      return;
    }
    ids.set(id, i);
    if (catalog.skills.some((s) => s.id === id)) return;
    const notFound = `${ucagent} skill '${item}' is not found in workspace.`;
    const broken = skippedDiagnostic(catalog, id);
    if (broken) {
      out.push(
        error(
          where,
          "SKILL_INVALID",
          `${notFound} (${where}: ${rootLabel}/${id}/SKILL.md does not load: ${broken.message}; fix it (\`skillgate validate\`) or remove it from skill_list.)`,
        ),
      );
      return;
    }
    const excluded = exclusionByFilters(id, copyFilters);
    out.push(
      error(
        where,
        "SKILL_NOT_FOUND",
        excluded
          ? `${notFound} (${where}: ${excluded}, so init did not copy it to ${rootLabel}; change that list and re-run skillgate init, or remove it from skill_list.)`
          : `${notFound} (${where}: no skill '${id}' in ${rootLabel}${suggest(id, catalog)}; fix the id (a path below the skill root) or remove it.)`,
      ),
    );
  });
  return false;
}

interface CopyFilters {
  enable_skill_list?: unknown;
  disable_skill_list?: unknown;
}

/** Why init's copy filters left `id` out (matched by id or folder name, as init does), or null. */
function exclusionByFilters(id: string, filters: CopyFilters | undefined): string | null {
  const names = [id, id.split("/").pop() ?? id];
  const listed = (list: unknown): boolean =>
    Array.isArray(list) &&
    list.some((entry) => typeof entry === "string" && names.includes(entry.replace(/^\.\/+|\/+$/g, "")));
  const enable = filters?.enable_skill_list;
  if (Array.isArray(enable) && enable.length > 0) {
    return listed(enable) ? null : "skill.enable_skill_list does not include it";
  }
  return listed(filters?.disable_skill_list) ? "skill.disable_skill_list excludes it" : null;
}

function checkGeneralSkills(
  raw: unknown,
  catalog: CatalogSnapshot,
  out: Diagnostic[],
  rootLabel: string,
): void {
  if (!Array.isArray(raw)) return;
  raw.forEach((entry, i) => {
    const id = typeof entry === "string" ? normaliseSkillId(entry) : null;
    if (id && catalog.skills.some((s) => s.id === id)) return;
    out.push(
      warning(
        `skill.general_skill_list[${i}]`,
        "GENERAL_SKILL_NOT_FOUND",
        `skill.general_skill_list[${i}]: no loadable skill '${String(entry)}' in ${rootLabel}${id ? suggest(id, catalog) : ""}; ListSkill will not show it. Fix the id or remove it.`,
      ),
    );
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

function skippedDiagnostic(catalog: CatalogSnapshot, id: string): Diagnostic | undefined {
  const dir = join(catalog.root, ...id.split("/"));
  return catalog.skipped.find((d) => {
    const rel = relative(dir, isAbsolute(d.path) ? d.path : join(catalog.root, d.path));
    return d.severity === "error" && (rel === "" || rel === "SKILL.md" || rel === `.${sep}SKILL.md`);
  });
}

function suggest(id: string, catalog: CatalogSnapshot): string {
  // Ids are compared by their last segment: a missing group prefix is the usual slip.
  const lastOf = (path: string) => path.split("/").pop() ?? path;
  const lasts = new Set(
    nearestNames(
      lastOf(id),
      catalog.skills.map((s) => lastOf(s.id)),
    ),
  );
  const near = catalog.skills.filter((s) => lasts.has(lastOf(s.id))).map((s) => `'${s.id}'`);
  return near.length > 0 ? ` (did you mean ${near.join(" or ")}?)` : "";
}

function guessBoolean(value: unknown): string {
  const text = String(value).trim().toLowerCase();
  return ["false", "0", "no", "off", "n", "null", ""].includes(text) ? "false" : "true";
}

function kind(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return `${JSON.stringify(value)} (a string)`;
  if (typeof value === "object") return "a mapping";
  return `${String(value)} (a ${typeof value})`;
}

function error(path: string, code: string, message: string): Diagnostic {
  return { path, code, message, severity: "error" };
}

function warning(path: string, code: string, message: string): Diagnostic {
  return { path, code, message, severity: "warning" };
}
