// The shipped default workflow driven by an "agent" through any caller (MCP over connect, or `skillgate call`), skills on.
import { join } from "node:path";
import { expect } from "vitest";
import {
  bugId,
  PLANTED,
  PYTHON_REPROS,
  pythonRepro,
  type ReproRun,
  recordBugArgs,
  reproductionMarkdown,
  summaryMarkdown,
} from "../e2e/support.js";

export interface CallOutcome {
  isError: boolean;
  code?: string | null;
  text: string;
  structured: Record<string, unknown>;
}

export type Caller = (tool: string, args?: Record<string, unknown>) => Promise<CallOutcome>;
/** Writes a workspace file (relative path) as the agent would with its own shell. */
export type AgentWrite = (rel: string, text: string) => Promise<void>;

const STATIC = "review/static-bug-analysis";
const PYTHON = "runners/python-runner";
const STATIC_MD = ".ucagent/skills/review/static-bug-analysis/SKILL.md";
const PYTHON_MD = ".ucagent/skills/runners/python-runner/SKILL.md";

const stageCompleted = (from: number, to: number, name: string) =>
  `Stage ${from} completed successfully. Current stage index is now ${to}: '${name}'.`;

async function ok(call: Caller, tool: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  const result = await call(tool, args);
  expect(result.isError, `${tool} failed:\n${result.text}`).toBe(false);
  return result;
}

/** Stage 0 with list → read → record_bug.ts runs → Check → SetSkillUsage → Complete; stages 1 and 2 likewise. */
export async function driveDefaultWorkflow(call: Caller, write: AgentWrite, ws: string): Promise<void> {
  const gated = await call("Complete");
  expect(gated).toMatchObject({ isError: true, code: "SKILL_USAGE_INCOMPLETE" });

  await ok(call, "ListSkill");
  const read = await ok(call, "ReadTextFile", { path: STATIC_MD });
  expect(read.structured.skill_read).toEqual({ skill_id: STATIC, read_complete: true });
  const recorded = await ok(call, "RunSkillScript", {
    commands: PLANTED.map((defect) => [STATIC, "record_bug.ts", recordBugArgs(defect)]),
  });
  expect(recorded.structured).toMatchObject({ ran: 5, total: 5, used: [STATIC] });
  expect((recorded.structured.commands as { sandboxed: boolean }[]).every((c) => c.sandboxed)).toBe(true);
  await ok(call, "Check");
  await ok(call, "SetSkillUsage", { skill_usage: { [STATIC]: { list: true, read: true, use: true } } });
  const stage0 = await ok(call, "Complete");
  expect(stage0.text.split("\n")[0]).toBe(stageCompleted(0, 1, "bug_reproduction"));

  await ok(call, "ListSkill");
  await ok(call, "ReadTextFile", { path: PYTHON_MD });
  const dut = join(ws, "dut");
  const rels: string[] = [];
  for (const [index, repro] of PYTHON_REPROS.entries()) {
    const rel = `out/scripts/repro_bug_${String(index + 1).padStart(3, "0")}.py`;
    await write(rel, pythonRepro(dut, repro));
    rels.push(rel);
  }
  const ran = await ok(call, "RunSkillScript", {
    commands: rels.map((rel) => [PYTHON, "run_uv_script.py", rel]),
  });
  const runs: ReproRun[] = (ran.structured.commands as { output: string }[]).map((record, index) => {
    const observed = record.output.trim().split("\n").at(-1) ?? "";
    expect(observed).toBe(PYTHON_REPROS[index]!.observed);
    return {
      bug: bugId(index),
      command: `RunSkillScript runners/python-runner run_uv_script.py ${rels[index]}`,
      observed,
      verdict: "reproduced",
    };
  });
  await write("out/reproduction.md", reproductionMarkdown(runs));
  await ok(call, "Check");
  const stage1 = await ok(call, "Complete");
  expect(stage1.text.split("\n")[0]).toBe(stageCompleted(1, 2, "summary"));

  await write("out/summary.md", summaryMarkdown(PLANTED, runs));
  await ok(call, "Check");
  const done = await ok(call, "Complete");
  expect(done.structured).toMatchObject({ complete: true, finished: true });
  const status = await ok(call, "Status");
  expect(status.text.split("\n")[0]).toBe("Progress: 3/3 stages completed; the workflow is finished.");
}
