// The default workflow driven end to end through the tools (no LLM, no mocks): skills on, skills off, skill folder missing, and each pack skill enabled/disabled/missing.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateWorkflow } from "../../runtime/stage/index.js";
import { toolsFor } from "../../runtime/tools/registry.js";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { readManifest } from "../../runtime/workspace/index.js";
import { removeTree } from "../tools/helpers.js";
import {
  analysisMarkdown,
  bugId,
  call,
  deleteFromSkillCopy,
  E2EHome,
  jsRepro,
  lineCount,
  ok,
  PLANTED,
  PYTHON_REPROS,
  pythonRepro,
  REPO,
  type ReproRun,
  recordBugArgs,
  reproductionMarkdown,
  summaryMarkdown,
  TITLES,
  writeText,
} from "./support.js";

const STATIC = "review/static-bug-analysis";
const PYTHON = "runners/python-runner";
const JS = "runners/js-runner";
const CREATOR = "authoring/skill-creator";
const STATIC_MD = ".ucagent/skills/review/static-bug-analysis/SKILL.md";
const PYTHON_MD = ".ucagent/skills/runners/python-runner/SKILL.md";
const HOOK_TIP = "  - Tip (review/static-bug-analysis): go through references/bug_classes.md class by class";

let home: E2EHome;
beforeAll(() => {
  home = new E2EHome();
});
afterAll(() => home.cleanup());

const skillIds = (result: { structured: Record<string, unknown> }) =>
  (result.structured.skills as { id: string }[]).map((skill) => skill.id);

const disabledText = (tool: string) =>
  `${tool}: skill support is disabled (skill.use_skill is false, or --no-use-skill was given), so there is nothing ` +
  "to do here. Work from the stage task and its guide_doc, then call Check and Complete. To use skills, restart " +
  "with --use-skill (or set skill.use_skill: true) and run `skillgate init <workspace>`.";

const RESTORE =
  "To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path " +
  "flags this session was started with (the running tools pick the copy up at once, no restart needed), or " +
  "restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill.";

const rootMissingText = (_ws: string) => `The workspace skill folder .ucagent/skills is missing. ${RESTORE}`;

const engineRootMissingText = (tool: string, _ws: string) =>
  `${tool}: stage 'static_bug_analysis' names skills, but the workspace skill folder .ucagent/skills is missing. ` +
  `${RESTORE} Check still works meanwhile.`;

const notFoundText = (id: string, available: string[]) =>
  `Command 1 invalid: skill '${id}' not found in .ucagent/skills; call ListSkill and use a Skill ID it shows ` +
  `(available: ${available.join(", ")}).\nNo command was run (every command is validated before any runs).`;

const gateMissingSkillText =
  "Stage 'static_bug_analysis' cannot complete: its skill gate needs skills that are missing from the workspace.\n" +
  "- skill 'review/static-bug-analysis' of this stage is not in the workspace skill folder " +
  `(.ucagent/skills/review/static-bug-analysis/SKILL.md is missing or no longer parses). ${RESTORE}`;

const stageCompleted = (from: number, to: number, name: string) =>
  `Stage ${from} completed successfully. Current stage index is now ${to}: '${name}'.`;
const ALL_DONE =
  "All stages completed successfully. Now you should review your work to check if everything is correct and all the users needs are matched.";

/** Writes the five python reproductions into <ws>/out/scripts and returns their workspace-relative paths. */
function writePythonRepros(ws: string, dut: string): string[] {
  return PYTHON_REPROS.map((repro, index) => {
    const rel = `out/scripts/repro_bug_${String(index + 1).padStart(3, "0")}.py`;
    writeText(join(ws, rel), pythonRepro(dut, repro));
    return rel;
  });
}

/** The whole workflow without skills: guides via ReadTextFile, outputs by hand, Check and Complete. */
async function completeByHand(session: OpenedSession, ws: string, fromStage: number): Promise<void> {
  const dut = session.runtime.DUT;
  if (fromStage <= 0) {
    writeText(join(ws, "out", "static_bug_analysis.md"), analysisMarkdown(PLANTED));
    await ok(session, "Check");
    expect((await ok(session, "Complete")).text).toContain(stageCompleted(0, 1, "bug_reproduction"));
  }
  const guide = await ok(session, "ReadTextFile", { path: "guide_doc/bug_reproduction.md" });
  expect(guide.text).toContain("skills off / any shell: `uv run out/scripts/repro_bug_001.py`, or `python3");
  const runs: ReproRun[] = writePythonRepros(ws, dut).map((rel, index) => {
    // As the guide says for skills off: a standard-library script runs with python3 from any shell.
    const run = spawnSync("python3", [rel], { cwd: ws, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(PYTHON_REPROS[index]!.observed);
    return {
      bug: bugId(index),
      command: `python3 ${rel}`,
      observed: run.stdout.trim(),
      verdict: "reproduced",
    };
  });
  writeText(join(ws, "out", "reproduction.md"), reproductionMarkdown(runs));
  await ok(session, "Check");
  expect((await ok(session, "Complete")).text).toContain(stageCompleted(1, 2, "summary"));
  await ok(session, "ReadTextFile", { path: "guide_doc/summary.md" });
  writeText(join(ws, "out", "summary.md"), summaryMarkdown(PLANTED, runs));
  await ok(session, "Check");
  const done = await ok(session, "Complete");
  expect(done.text).toBe(ALL_DONE);
  expect(done.structured.finished).toBe(true);
}

describe.sequential("a. skills on: the default workflow with list, read, run, Check, SetSkillUsage, Complete", () => {
  let ws: string;
  let session: OpenedSession;
  const runs: ReproRun[] = [];

  beforeAll(async () => {
    ws = await home.workspace("skills-on");
    session = await home.open(ws);
  });

  it("initialises the workspace: pack copy, guides, DUT with the example target", () => {
    expect(session.initialised).toBe(true);
    expect(session.skillsEnabled).toBe(true);
    expect(session.runtime.DUT).toBe(join(ws, "dut"));
    expect(existsSync(join(ws, "dut", "inventory.py"))).toBe(true);
    expect(existsSync(join(ws, STATIC_MD))).toBe(true);
    expect(existsSync(join(ws, "guide_doc", "static_bug_analysis.md"))).toBe(true);
  });

  it("stage 0: the task points at the guide and the stage skill's hook adds its guidance line", async () => {
    const status = await ok(session, "Status");
    expect(status.text).toContain(
      "  - First read the stage guide with ReadTextFile (path `guide_doc/static_bug_analysis.md`, relative to the workspace): it has the complete method and the exact acceptance format.",
    );
    expect(status.text).toContain(HOOK_TIP);
  });

  it("stage 0: Complete first is refused by the skill gate with the expected SetSkillUsage call", async () => {
    const first = await call(session, "Complete");
    expect(first.code).toBe("SKILL_USAGE_INCOMPLETE");
    expect(first.text).toBe(
      [
        "Use tool `ListSkill` to list skill review/static-bug-analysis before completing this stage. Stage 'static_bug_analysis' has incomplete skill evidence (no checker was run):",
        "- review/static-bug-analysis: Listed no, Read no, Used no, Not Applicable no -> call `ListSkill`; read .ucagent/skills/review/static-bug-analysis/SKILL.md with `ReadTextFile`; run its script with `RunSkillScript` (or report use: false with a reason via `SetSkillUsage`)",
        "Next: ListSkill({}); then `Check` and record the usage with `SetSkillUsage`.",
      ].join("\n"),
    );
    expect(first.structured).toMatchObject({
      complete: false,
      checkers_run: 0,
      next_action: "ListSkill({})",
    });
  });

  it("stage 0: ListSkill shows the stage skill then the general skill, with their scripts", async () => {
    const listed = await ok(session, "ListSkill");
    expect(skillIds(listed)).toEqual([STATIC, CREATOR]);
    expect(listed.text.split("\n").slice(0, 9)).toEqual([
      "Found 2 available skills:",
      "1. Skill Name: static-bug-analysis",
      expect.stringMatching(
        /^ {3}Skill Description: Find real defects in a target program by reading its code/,
      ),
      `   Skill Path: ${STATIC_MD}`,
      `   Skill ID: ${STATIC}`,
      "   Script Path:",
      "     - list_bugs.ts: .ucagent/skills/review/static-bug-analysis/scripts/list_bugs.ts",
      "     - record_bug.ts: .ucagent/skills/review/static-bug-analysis/scripts/record_bug.ts",
      "2. Skill Name: skill-creator",
    ]);
    expect(listed.structured.skills).toMatchObject([{ source: "stage" }, { source: "general" }]);
  });

  it("stage 0: ReadTextFile of the guide records nothing; of the whole SKILL.md records the read", async () => {
    const guide = await ok(session, "ReadTextFile", { path: "guide_doc/static_bug_analysis.md" });
    expect(guide.structured.skill_read).toBeNull();
    const lines = lineCount(join(ws, STATIC_MD));
    const read = await ok(session, "ReadTextFile", { path: STATIC_MD });
    expect(read.text.split("\n")[0]).toBe(
      `Read ${lines}/${lines} lines from '${STATIC_MD}' (lines 1-${lines}), 0 lines remain after the read position. ` +
        `SHA256: ${createHash("sha256")
          .update(readFileSync(join(ws, STATIC_MD)))
          .digest("hex")}.`,
    );
    expect(read.structured.skill_read).toEqual({ skill_id: STATIC, read_complete: true });
  });

  it("stage 0: record_bug.ts records the planted defects (one call, then four commands in one call)", async () => {
    const bugFile = join(ws, "out", "static_bug_analysis.md");
    const first = await ok(session, "RunSkillScript", {
      commands: [[STATIC, "record_bug.ts", recordBugArgs(PLANTED[0]!)]],
    });
    const d0 = PLANTED[0]!;
    expect(first.text).toContain(
      `recorded BUG-001: ${TITLES[d0.id]} (${d0.file}:${d0.line}, ${d0.severity}) in ${bugFile}`,
    );
    expect(first.structured).toMatchObject({ ran: 1, total: 1, used: [STATIC] });
    expect((first.structured.commands as { sandboxed: boolean }[])[0]!.sandboxed).toBe(true);

    const rest = await ok(session, "RunSkillScript", {
      commands: PLANTED.slice(1).map((defect) => [STATIC, "record_bug.ts", recordBugArgs(defect)]),
    });
    expect(rest.structured).toMatchObject({ ran: 4, total: 4 });
    PLANTED.slice(1).forEach((defect, i) => {
      expect(rest.text).toContain(
        `recorded ${bugId(i + 1)}: ${TITLES[defect.id]} (${defect.file}:${defect.line}, ${defect.severity})`,
      );
    });
    // The helper wrote exactly the format a hand-written file has (the guide's format).
    expect(readFileSync(bugFile, "utf8").trimEnd()).toBe(analysisMarkdown(PLANTED).trimEnd());

    const listed = await ok(session, "RunSkillScript", { commands: [[STATIC, "list_bugs.ts", ""]] });
    expect(listed.text).toContain(
      [
        `5 bug entries in ${bugFile}:`,
        ...PLANTED.map((d, i) => `${bugId(i)} [${d.severity}] ${d.file}:${d.line} ${TITLES[d.id]}`),
      ].join("\n"),
    );
  });

  it("stage 0: Check passes and names the SetSkillUsage call; Complete is still gated until it is made", async () => {
    const check = await ok(session, "Check");
    expect(check.text.split("\n")[0]).toBe(
      "Congratulations! Stage 0 checks passed successfully, you can use tool 'Complete' to finish this stage.",
    );
    expect(check.text).toContain("- markdown_entries: out/static_bug_analysis.md has 5 complete entries.");
    const useTrue =
      'SetSkillUsage({"skill_usage":{"review/static-bug-analysis":{"list":true,"read":true,"use":true}}})';
    expect(check.structured.next_action).toBe(useTrue);
    const gated = await call(session, "Complete");
    expect(gated.code).toBe("SKILL_USAGE_NOT_VALIDATED");
    expect(gated.structured.next_action).toBe(useTrue);
  });

  it("stage 0: SetSkillUsage accepts the observed evidence and Complete moves to bug_reproduction", async () => {
    const usage = await ok(session, "SetSkillUsage", {
      skill_usage: { [STATIC]: { list: true, read: true, use: true } },
    });
    expect(usage.text).toBe(
      "All skills in skill_list have been used. SetSkillUsage accepted for stage 'static_bug_analysis': review/static-bug-analysis: Used. Next: call `Complete`.",
    );
    const done = await ok(session, "Complete");
    expect(done.text.split("\n")[0]).toBe(stageCompleted(0, 1, "bug_reproduction"));
    expect(done.text).toContain(
      "Stage skills: runners/python-runner, runners/js-runner. Use `ListSkill` and read each SKILL.md with `ReadTextFile` first.",
    );
    expect(done.structured.next_stage).toMatchObject({
      index: 1,
      name: "bug_reproduction",
      skill_list: [PYTHON, JS],
    });
  });

  it("stage 1: ListSkill shows both runners (optional stage skills) and the general skill", async () => {
    const listed = await ok(session, "ListSkill");
    expect(skillIds(listed)).toEqual([JS, PYTHON, CREATOR]);
    expect(listed.structured.skills).toMatchObject([
      { source: "stage" },
      { source: "stage" },
      { source: "general" },
    ]);
    const read = await ok(session, "ReadTextFile", { path: PYTHON_MD });
    expect(read.structured.skill_read).toEqual({ skill_id: PYTHON, read_complete: true });
  });

  it("stage 1: PEP 723 drafts run through python-runner's run_uv_script.py (real uv, sandbox level 2)", async () => {
    const rels = writePythonRepros(ws, session.runtime.DUT);
    const result = await ok(session, "RunSkillScript", {
      commands: rels.map((rel) => [PYTHON, "run_uv_script.py", rel]),
    });
    const records = result.structured.commands as { output: string; sandboxed: boolean; argv: string[] }[];
    expect(records).toHaveLength(PYTHON_REPROS.length);
    records.forEach((record, index) => {
      expect(record.sandboxed).toBe(true);
      expect(record.argv.slice(-2)).toEqual([
        realpathSync(join(ws, ".ucagent/skills/runners/python-runner/scripts/run_uv_script.py")),
        rels[index],
      ]);
      const observed = record.output.trim().split("\n").at(-1);
      expect(observed).toBe(PYTHON_REPROS[index]!.observed);
      runs.push({
        bug: bugId(index),
        command: `RunSkillScript runners/python-runner run_uv_script.py ${rels[index]}`,
        observed: observed!,
        verdict: "reproduced",
      });
    });
    expect(result.structured.used).toEqual([PYTHON]);
  });

  it("stage 1: a JS reproduction runs through js-runner's run_bun_script.mjs (real bun)", async () => {
    writeText(join(ws, "out", "scripts", "repro_bug_004.mjs"), jsRepro(session.runtime.DUT));
    const result = await ok(session, "RunSkillScript", {
      commands: [[JS, "run_bun_script.mjs", "out/scripts/repro_bug_004.mjs"]],
    });
    const [record] = result.structured.commands as { output: string; sandboxed: boolean }[];
    expect(record!.sandboxed).toBe(true);
    expect(record!.output.trim().split("\n").at(-1)).toBe("expected 20669, got 13671");
    runs.push({
      bug: "BUG-004",
      command: "RunSkillScript runners/js-runner run_bun_script.mjs out/scripts/repro_bug_004.mjs",
      observed: "expected 20669, got 13671",
      verdict: "reproduced",
    });
  });

  it("stage 1: reproduction.md passes Check with no skill gate, and Complete needs no SetSkillUsage", async () => {
    const bad = reproductionMarkdown(runs).replace("- **Verdict**: reproduced", "- **Verdict**: maybe");
    writeText(join(ws, "out", "reproduction.md"), bad);
    const failed = await call(session, "Check");
    expect(failed.code).toBe("CHECK_FAILED");
    expect(failed.text.split("\n")[0]).toMatch(
      /^Stage 1 \('bug_reproduction'\) check failed at checker 5\/5 \(regex_count\): /,
    );
    writeText(join(ws, "out", "reproduction.md"), reproductionMarkdown(runs));
    const check = await ok(session, "Check");
    expect(check.text).toContain(
      "- markdown_entries: out/reproduction.md has 6 complete entries, one or more for each Bug id recorded in static_bug_analysis.md.",
    );
    expect(check.text).not.toContain("skill gate");
    const done = await ok(session, "Complete");
    expect(done.text.split("\n")[0]).toBe(stageCompleted(1, 2, "summary"));
  });

  it("stage 2 (no skills): SetSkillUsage has nothing to record; summary.md passes; the workflow finishes", async () => {
    const listed = await ok(session, "ListSkill");
    expect(skillIds(listed)).toEqual([CREATOR]);
    const usage = await ok(session, "SetSkillUsage", {
      skill_usage: { [CREATOR]: { list: true, read: false, use: false, reason: "not needed" } },
    });
    expect(usage.text).toBe(
      "No skill need be used in current stage: stage 'summary' has no skill_list, so there is nothing to record. Next: call `Check`, then `Complete`.",
    );
    writeText(join(ws, "out", "summary.md"), summaryMarkdown(PLANTED, runs));
    await ok(session, "Check");
    const done = await ok(session, "Complete");
    expect(done.text).toBe(ALL_DONE);
    expect(done.structured).toMatchObject({ complete: true, finished: true });
  });

  it("Status shows every stage done; further Complete says the workflow is finished", async () => {
    const status = await ok(session, "Status");
    // The ledger health lines follow the stages; the optional stage is shown as completed with the gate off.
    expect(status.text).toContain(
      "  stage 1 'bug_reproduction' was completed with the skill gate off (force_use_skill: false).",
    );
    expect(status.text.split("\nEvidence ledger:")[0]).toBe(
      [
        "Progress: 3/3 stages completed; the workflow is finished.",
        "Stages:",
        "  [x] 0. static_bug_analysis (completed)",
        "  [x] 1. bug_reproduction (completed)",
        "  [x] 2. summary (completed)",
      ].join("\n"),
    );
    expect(status.structured).toMatchObject({ finished: true, current_stage_index: null });
    const again = await call(session, "Complete");
    expect(again.code).toBe("WORKFLOW_FINISHED");
    expect(again.text).toBe(
      "Complete: no more stages to complete; all 3 stage(s) of the workflow are completed. Review your work; call `Status` to see the stages.",
    );
  });
});

describe.sequential("b. skills off (--no-use-skill): guides + checkers complete every stage", () => {
  let ws: string;
  let session: OpenedSession;

  beforeAll(async () => {
    ws = await home.workspace("skills-off");
    session = await home.open(ws, { argvFlags: ["--no-use-skill"] });
  });

  it("copies no skill but copies the guides; of the workflow tools only ReadTextFile, Check, Complete and Status are offered", () => {
    expect(session.skillsEnabled).toBe(false);
    expect(existsSync(join(ws, ".ucagent", "skills"))).toBe(false);
    for (const guide of ["static_bug_analysis.md", "bug_reproduction.md", "summary.md"]) {
      expect(readFileSync(join(ws, "guide_doc", guide), "utf8")).toBe(
        readFileSync(join(REPO, "guide_doc", guide), "utf8"),
      );
    }
    expect(toolsFor(false, { fileTools: false }).map((tool) => tool.name)).toEqual([
      "ReadTextFile",
      "Check",
      "Complete",
      "Status",
    ]);
  });

  it.each(["ListSkill", "RunSkillScript", "SetSkillUsage"])(
    "%s answers that skill support is disabled",
    async (tool) => {
      const args =
        tool === "RunSkillScript"
          ? { commands: [[PYTHON, "run_uv_script.py", "x.py"]] }
          : tool === "SetSkillUsage"
            ? { skill_usage: { [STATIC]: { list: true, read: true, use: true } } }
            : {};
      const result = await call(session, tool, args);
      expect(result).toMatchObject({ isError: false, code: "SKILLS_DISABLED", text: disabledText(tool) });
    },
  );

  it("stage 0: the task points at the guide; the guide gives the format; Complete only runs the checkers", async () => {
    const status = await ok(session, "Status");
    expect(status.text).toContain(
      "  - First read the stage guide with ReadTextFile (path `guide_doc/static_bug_analysis.md`, relative to the workspace): it has the complete method and the exact acceptance format.",
    );
    expect(status.text).toContain(
      "Skills: skill support is disabled; complete the stage from its tasks and checkers.",
    );
    // Hooks load only with skills enabled: guidance never carries a requirement.
    expect(status.text).not.toContain(HOOK_TIP);
    const guide = await ok(session, "ReadTextFile", { path: "guide_doc/static_bug_analysis.md" });
    const content = guide.structured.content as string;
    for (const line of [
      "# Static Bug Analysis",
      "## BUG-001: ",
      "- **File**: ",
      "- **Line**: ",
      "- **Severity**: ",
    ])
      expect(content).toContain(line);
    await ok(session, "ReadTextFile", { path: "dut/inventory.py" });
    const early = await call(session, "Complete");
    expect(early.code).toBe("CHECK_FAILED");
    expect(early.text.split("\n").slice(0, 2)).toEqual([
      "Stage 0 not completed. Please check the task requirements.",
      expect.stringMatching(/^Checker 1\/5 \(file_exists\) failed: /),
    ]);
  });

  it("every stage's guide_doc is a workspace path ReadTextFile reads, and its task says so", async () => {
    for (const stage of session.config.stage) {
      expect(stage.guide_doc).toBe(`guide_doc/${stage.name}.md`);
      expect(stage.task[0]).toBe(
        `First read the stage guide with ReadTextFile (path \`${stage.guide_doc}\`, relative to the workspace): it has the complete method and the exact acceptance format.`,
      );
      const guide = await ok(session, "ReadTextFile", { path: stage.guide_doc });
      expect(guide.structured.content).toBe(readFileSync(join(REPO, stage.guide_doc!), "utf8"));
    }
  });

  it("completes all three stages by hand and Status shows the workflow finished", async () => {
    await completeByHand(session, ws, 0);
    const status = await ok(session, "Status");
    expect(status.text.split("\n")[0]).toBe("Progress: 3/3 stages completed; the workflow is finished.");
  });
});

describe.sequential("c. skill folder missing after init", () => {
  let ws: string;
  let session: OpenedSession;

  beforeAll(async () => {
    ws = await home.workspace("root-missing");
    session = await home.open(ws);
    removeTree(join(ws, ".ucagent", "skills"));
  });

  it("ListSkill and RunSkillScript say the skill folder is missing and how to restore it", async () => {
    for (const [tool, args] of [
      ["ListSkill", {}],
      ["RunSkillScript", { commands: [[STATIC, "list_bugs.ts", ""]] }],
    ] as const) {
      const result = await call(session, tool, args);
      expect(result).toMatchObject({ isError: true, code: "SKILL_ROOT_MISSING", text: rootMissingText(ws) });
    }
    const usage = await call(session, "SetSkillUsage", {
      skill_usage: { [STATIC]: { list: true, read: true, use: true } },
    });
    expect(usage).toMatchObject({
      code: "SKILL_ROOT_MISSING",
      text: engineRootMissingText("SetSkillUsage", ws),
    });
    const read = await call(session, "ReadTextFile", { path: STATIC_MD });
    expect(read.code).toBe("FILE_NOT_FOUND");
  });

  it("Check still works; Complete on the forced stage gives the clear message", async () => {
    await ok(session, "ReadTextFile", { path: "guide_doc/static_bug_analysis.md" });
    writeText(join(ws, "out", "static_bug_analysis.md"), analysisMarkdown(PLANTED));
    const check = await ok(session, "Check");
    expect(check.text.split("\n")[0]).toBe(
      "Congratulations! Stage 0 checks passed successfully, you can use tool 'Complete' to finish this stage.",
    );
    const complete = await call(session, "Complete");
    expect(complete).toMatchObject({
      code: "SKILL_ROOT_MISSING",
      text: engineRootMissingText("Complete", ws),
    });
  });

  it("a restarted session (without serve's restore) shows the missing folder and its fix in Status", async () => {
    const restarted = await home.open(ws);
    expect(restarted.initialised).toBe(false);
    const status = await ok(restarted, "Status");
    expect(status.structured.warnings).toBeUndefined();
    expect(status.text).toContain(`\n  The workspace skill folder .ucagent/skills is missing. ${RESTORE}\n`);
  });

  it("with --no-use-skill the same workspace completes the workflow", async () => {
    const off = await home.open(ws, { argvFlags: ["--no-use-skill"] });
    await completeByHand(off, ws, 0);
  });
});

describe.sequential("d. each pack skill enabled, disabled and missing", () => {
  const PACK = [STATIC, PYTHON, JS, CREATOR];
  /** Where the default workflow names each skill: stage index and skill_list position, or general. */
  const NAMED: Record<string, { stage: number; name: string; at: number } | "general"> = {
    [STATIC]: { stage: 0, name: "static_bug_analysis", at: 0 },
    [PYTHON]: { stage: 1, name: "bug_reproduction", at: 0 },
    [JS]: { stage: 1, name: "bug_reproduction", at: 1 },
    [CREATOR]: "general",
  };
  const GENERAL_ALL =
    "skill:\n  general_skill_list: [authoring/skill-creator, runners/python-runner, runners/js-runner]\n";

  it("enabled: all four are listed (stage skill + general skills) and a script of each runs", async () => {
    const ws = await home.workspace("enabled");
    const session = await home.open(ws, { configFile: home.configFile("enabled", GENERAL_ALL) });
    const listed = await ok(session, "ListSkill");
    expect(skillIds(listed)).toEqual([STATIC, CREATOR, JS, PYTHON]);
    const run = await ok(session, "RunSkillScript", {
      commands: [
        [PYTHON, "get_temp_path.py", ""],
        [JS, "get_temp_path.mjs", ""],
        [
          CREATOR,
          "validate_skill.mjs",
          ".ucagent/skills/authoring/skill-creator .ucagent/skills/runners/js-runner",
        ],
        [STATIC, "record_bug.ts", recordBugArgs(PLANTED[2]!)],
      ],
    });
    const outputs = (run.structured.commands as { output: string; sandboxed: boolean }[]).map((c) => {
      expect(c.sandboxed).toBe(true);
      return c.output.trim();
    });
    expect(outputs[0]).toMatch(/^\/.+\/uv_script_\d{14}_[0-9a-f]{8}\.py$/);
    expect(outputs[1]).toMatch(/^\/.+\/js-runner-\d+-[0-9a-f]{8}\.js$/);
    expect(outputs[2]).toBe(
      "ok: .ucagent/skills/authoring/skill-creator\nok: .ucagent/skills/runners/js-runner",
    );
    expect(outputs[3]).toMatch(
      /^recorded BUG-001: remove_stock\(\) refuses to sell the last unit \(inventory\.py:90, high\)/,
    );
    // Use evidence is recorded for the current stage's skills only.
    expect(run.structured.used).toEqual([STATIC]);
  });

  it.each(PACK)(
    "disabled by skill.disable_skill_list: %s is not copied; a stage naming it stops start-up, a general one warns",
    async (id) => {
      const name = `disabled-${id.replace("/", "-")}`;
      const ws = await home.workspace(name);
      const configFile = home.configFile(name, `skill:\n  disable_skill_list: [${id}]\n`);
      const named = NAMED[id]!;
      if (named !== "general") {
        // UCAgent raises while building its stages; so does opening a session (init, serve, call).
        const message =
          `the workflow of workspace ${ws} cannot start (1 error):\n` +
          `  - Stage '${named.name}' skill '${id}' is not found in workspace. (stage[${named.stage}].skill_list[${named.at}]: skill.disable_skill_list excludes it, so init did not copy it to .ucagent/skills; change that list and re-run skillgate init, or remove it from skill_list.)\n` +
          "Fix the stage config (skill_list entries are paths below the workspace skill folder) and start again.";
        await expect(home.open(ws, { configFile })).rejects.toMatchObject({
          code: "WORKFLOW_INVALID",
          message,
        });
        expect(existsSync(join(ws, ".ucagent", "skills", ...id.split("/")))).toBe(false);
        return;
      }
      const session = await home.open(ws, { configFile });
      expect(existsSync(join(ws, ".ucagent", "skills", ...id.split("/")))).toBe(false);
      expect((await readManifest(session.paths))?.skills).toEqual(
        PACK.filter((other) => other !== id).sort(),
      );
      const others = PACK.filter((other) => other !== id).sort();
      expect(validateWorkflow(session.config, session.catalog(), true)).toEqual([
        {
          path: "skill.general_skill_list[0]",
          code: "GENERAL_SKILL_NOT_FOUND",
          severity: "warning",
          message: `skill.general_skill_list[0]: no loadable skill '${id}' in ${session.paths.skillsDir}; ListSkill will not show it. Fix the id or remove it.`,
        },
      ]);
      const listed = await ok(session, "ListSkill");
      expect(skillIds(listed)).not.toContain(id);
      const run = await call(session, "RunSkillScript", { commands: [[id, "validate_skill.mjs", ""]] });
      expect(run).toMatchObject({ code: "SKILL_NOT_FOUND", text: notFoundText(id, others) });
    },
  );

  it.each(PACK)(
    "missing from the workspace: %s deleted after init gives SKILL_NOT_FOUND until re-init",
    async (id) => {
      const ws = await home.workspace(`missing-${id.replace("/", "-")}`);
      const configFile = home.configFile(`missing-${id.replace("/", "-")}`, GENERAL_ALL);
      const session = await home.open(ws, { configFile });
      deleteFromSkillCopy(join(session.paths.skillsDir, ...id.split("/")));
      const others = PACK.filter((other) => other !== id).sort();

      const listed = await ok(session, "ListSkill");
      expect(skillIds(listed)).toEqual([STATIC, CREATOR, JS, PYTHON].filter((other) => other !== id));
      if (id === STATIC) {
        expect(listed.text.split("\n").at(-1)).toBe(
          "Warning: stage skill(s) review/static-bug-analysis of stage 'static_bug_analysis' failed to load from .ucagent/skills; run `skillgate validate .ucagent/skills` to see why. " +
            RESTORE.replace("restore it", "restore the copy"),
        );
      }
      const script = {
        [STATIC]: "record_bug.ts",
        [PYTHON]: "run_uv_script.py",
        [JS]: "run_bun_script.mjs",
        [CREATOR]: "create_skill.mjs",
      }[id]!;
      const run = await call(session, "RunSkillScript", { commands: [[id, script, ""]] });
      expect(run).toMatchObject({ code: "SKILL_NOT_FOUND", text: notFoundText(id, others) });

      if (id === STATIC) {
        writeText(join(ws, "out", "static_bug_analysis.md"), analysisMarkdown(PLANTED));
        await ok(session, "Check");
        expect(await call(session, "Complete")).toMatchObject({
          code: "SKILL_NOT_FOUND",
          text: gateMissingSkillText,
        });
      }

      // `skillgate init` (a session opened with init) restores the copy.
      const restored = await home.open(ws, { configFile, init: true });
      expect(skillIds(await ok(restored, "ListSkill"))).toContain(id);
    },
  );
});
