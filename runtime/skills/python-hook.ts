// Notices skills that carry a UCAgent (Python) stage hook, scripts/__init__.py, which skillgate never runs.
import fs from "node:fs";
import path from "node:path";
import type { DirEntry } from "./tree-prefetch.js";
import type { CatalogSnapshot, Diagnostic } from "./types.js";

export const PYTHON_HOOK_NOT_RUN = "PYTHON_HOOK_NOT_RUN";
const PYTHON_HOOK_FILE = "__init__.py";

/**
 * A warning for a skill whose non-empty `scripts/__init__.py` (UCAgent imports it and calls
 * `setup_vstage(stage)`) has no `hooks.ts` beside SKILL.md: in skillgate that hook does nothing.
 */
export function pythonHookDiagnostic(
  skillDir: string,
  scriptsEntries: DirEntry[],
  hasHooks: boolean,
): Diagnostic | null {
  if (hasHooks) return null;
  const entry = scriptsEntries.find((candidate) => candidate.name === PYTHON_HOOK_FILE);
  if (!entry || !(entry.isFile() || entry.isSymbolicLink())) return null;
  const file = path.join(skillDir, "scripts", PYTHON_HOOK_FILE);
  try {
    // UCAgent skips an empty __init__.py (os.path.getsize(...) > 0), so do we.
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size === 0) return null;
  } catch {
    return null;
  }
  return {
    path: file,
    code: PYTHON_HOOK_NOT_RUN,
    message:
      "scripts/__init__.py is a UCAgent (Python) stage hook (setup_vstage); its Python hook is not run here — skillgate runs only hooks.ts beside SKILL.md (export setupStage(stage)); the skill still loads, port the hook to hooks.ts if its stage needs that guidance",
    severity: "warning",
  };
}

/** The skills of a snapshot whose Python hook is not run, as "id: message" lines (for status). */
export function pythonHookNotes(snapshot: CatalogSnapshot | null): string[] {
  if (!snapshot) return [];
  return snapshot.skills.flatMap((skill) =>
    skill.diagnostics
      .filter((diagnostic) => diagnostic.code === PYTHON_HOOK_NOT_RUN)
      .map((diagnostic) => `${skill.id}: ${diagnostic.message}`),
  );
}
