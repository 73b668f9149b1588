// Stage hook of review/static-bug-analysis: appends one guidance line to its stage's tasks (guidance only, never a requirement).
// Self-contained on purpose: the pack must load in hosts without skillgate's runtime, so nothing is imported.

type Method = (...args: unknown[]) => unknown;

/** The part of a stage instance a hook may use (skillgate's stage engine provides it). */
export interface HookableStage {
  addHook(method: string, fn: (original: Method, ...args: unknown[]) => unknown): void;
}

export const GUIDANCE_LINE =
  'Tip (review/static-bug-analysis): go through references/bug_classes.md class by class, record each defect with RunSkillScript [["review/static-bug-analysis", "record_bug.ts", "--file <path in DUT> --line <N> --severity high --title \'...\' --description \'...\'"]] (it writes the exact entry format) and review the file with list_bugs.ts before Check.';

function withGuidance(tasks: unknown): unknown {
  return Array.isArray(tasks) ? [...tasks, GUIDANCE_LINE] : tasks;
}

export function setupStage(stage: HookableStage): void {
  stage.addHook("getTasks", (original, ...args) => {
    const tasks = original(...args);
    // The engine may compute tasks synchronously or asynchronously; support both.
    if (tasks instanceof Promise) return tasks.then(withGuidance);
    return withGuidance(tasks);
  });
}
