// Load-time check of the stage skill_list entries and general_skill_list against the workspace skill catalog.
import { isAbsolute, join, relative, sep } from "node:path";
import { nearestNames } from "../contracts/index.js";
import type { CatalogSnapshot, Diagnostic } from "../skills/index.js";
import { normaliseSkillId } from "../skills/index.js";
import { error, kind, warning } from "./workflow-diagnostics.js";

/** Returns true when it reported the skill root missing. Messages start with UCAgent's own sentence. */
export function checkSkillList(
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

export interface CopyFilters {
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

export function checkGeneralSkills(
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
