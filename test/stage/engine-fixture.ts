// Shared fixture of the stage verb tests: two fixture skills (text method, script), a forced stage, a plain stage.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { makeWorkspace, type TestWorkspace, wholeFile } from "./helpers.js";

export const TEXT = "review/text-method";
export const SCRIPT = "review/script-method";

/** A command checker that appends to checker-ran.txt: proves whether Complete ran any checker. */
const MARKER_CHECKER = {
  kind: "command",
  args: { argv: ["node", "-e", "require('fs').appendFileSync('checker-ran.txt', 'x')"] },
};
const REPORT_CHECKER = {
  kind: "markdown_headings",
  args: { path: "{OUT}/report.md", headings: ["# Report"] },
};

export function forcedStage(name = "review", skills = [TEXT, SCRIPT]) {
  return {
    name,
    desc: "Review the target",
    task: ["Write out/report.md"],
    output_files: ["{OUT}/report.md"],
    checker: [MARKER_CHECKER, REPORT_CHECKER],
    skill_list: skills,
  };
}
export const PLAIN_STAGE = {
  name: "plain",
  task: ["Finish"],
  checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
};

/** The workspace of the running test (set by setup, removed by cleanup in each file's afterEach). */
export let ws: TestWorkspace | undefined;

export async function cleanup(): Promise<void> {
  await ws?.cleanup();
  ws = undefined;
}

export async function setup(stages: unknown[], opts: { skillsEnabled?: boolean } = {}) {
  ws = await makeWorkspace({ stages, ...opts });
  await writeReport("# Report\n\nFindings.\n");
  return ws;
}

export async function writeReport(text: string): Promise<void> {
  await writeFile(join(ws!.root, "out", "report.md"), text);
}

export async function markerCount(): Promise<number> {
  return (await readFile(join(ws!.root, "checker-ran.txt"), "utf8").catch(() => "")).length;
}

export const TEXT_LINES = 9;
export const SCRIPT_LINES = 7;

export async function collectAll(engine: Awaited<ReturnType<TestWorkspace["engine"]>>): Promise<void> {
  await engine.recordList([TEXT, SCRIPT]);
  await engine.recordRead(TEXT, wholeFile(TEXT_LINES));
  await engine.recordRead(SCRIPT, wholeFile(SCRIPT_LINES));
  await engine.recordUse([SCRIPT], { commands: [] });
}

export const USED = { list: true, read: true, use: true };
