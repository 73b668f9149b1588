// A full forced stage driven through `skillgate call` (one process per call): list, read, Check, SetSkillUsage, Complete.
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isolateHome, type TempRoot, tempRoot } from "../support/workspace.js";
import { FIXTURE_SKILLS } from "./helpers.js";

const MAIN = resolve(import.meta.dirname, "../../runtime/cli/main.ts");
let base: TempRoot;
let ws: string;
let configFile: string;
let env: NodeJS.ProcessEnv;

interface CallOutput {
  isError: boolean;
  code: string | null;
  text: string;
  structured: Record<string, unknown>;
}

async function call(tool: string, args?: unknown): Promise<CallOutput> {
  const argv = [MAIN, "call", tool, ...(args === undefined ? [] : [JSON.stringify(args)])];
  const result = await execa("npx", ["tsx", ...argv, "--workspace", ws, "--config", configFile, "--json"], {
    env,
    reject: false,
  });
  if (result.exitCode !== 0 && result.exitCode !== 1)
    throw new Error(`${tool}: exit ${result.exitCode}\n${result.stderr}`);
  const parsed = JSON.parse(result.stdout) as CallOutput;
  expect(result.exitCode).toBe(parsed.isError ? 1 : 0);
  return parsed;
}

beforeAll(async () => {
  base = tempRoot("skillgate-cli-flow-");
  ws = base.path("ws");
  env = isolateHome(base.dir, { create: false }).env;
  configFile = base.path("config.yaml");
  await writeFile(
    configFile,
    [
      "skill:",
      `  pack_path: ${JSON.stringify(FIXTURE_SKILLS)}`,
      "  general_skill_list: []",
      "stage:",
      "  - name: review",
      "    task: [Write out/report.md with a '# Report' heading]",
      "    output_files: ['{OUT}/report.md']",
      "    checker:",
      "      - kind: markdown_headings",
      "        args: {path: '{OUT}/report.md', headings: ['# Report']}",
      "    skill_list: [review/text-method]",
      "  - name: wrap_up",
      "    task: [Nothing more]",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  base.cleanup();
});

describe("skillgate call drives a forced stage from ListSkill to Complete", () => {
  it("gates Complete until list + read + Check + SetSkillUsage, then advances", async () => {
    const first = await call("Complete");
    expect(first.code).toBe("SKILL_USAGE_INCOMPLETE");
    await mkdir(join(ws, "out"), { recursive: true });
    await writeFile(join(ws, "out", "report.md"), "# Report\n\nDone.\n");

    const listed = await call("ListSkill");
    expect(listed.isError).toBe(false);
    const read = await call("ReadTextFile", { path: ".ucagent/skills/review/text-method/SKILL.md" });
    expect(read.isError).toBe(false);
    const beforeCheck = await call("SetSkillUsage", {
      skill_usage: { "review/text-method": { list: true, read: true, use: true } },
    });
    expect(beforeCheck.code).toBe("SKILL_USAGE_REJECTED");
    expect(beforeCheck.text).toContain("Next: call `Check`.");

    expect((await call("Check")).isError).toBe(false);
    // The mapping as a JSON string is accepted too.
    const usage = await call("SetSkillUsage", {
      skill_usage: JSON.stringify({ "review/text-method": { list: true, read: true, use: true } }),
    });
    expect(usage.isError).toBe(false);
    expect(usage.text).toContain("SetSkillUsage accepted for stage 'review'");

    const status = await call("Status");
    expect(status.text).toContain(
      "  - review/text-method: Listed yes, Read yes, Used yes, Not Applicable no",
    );

    const done = await call("Complete");
    expect(done.isError).toBe(false);
    expect(done.text).toContain("Stage 0 completed successfully. Current stage index is now 1: 'wrap_up'.");
    const last = await call("Complete");
    expect(last.text).toContain("All stages completed successfully.");
  }, 300_000);
});
