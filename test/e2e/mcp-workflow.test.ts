// The whole default workflow driven only through MCP requests (stdio and HTTP): the test itself writes no file.
import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectHttp, connectStdio, rpc, startHttpServer, ValidatingClient } from "../mcp/helpers.js";
import { isolateHome, tempRoot } from "../support/workspace.js";
import {
  analysisMarkdown,
  bugId,
  PLANTED,
  PYTHON_REPROS,
  pythonRepro,
  type ReproRun,
  reproductionMarkdown,
  summaryMarkdown,
} from "./support.js";

const STATIC = "review/static-bug-analysis";
const PYTHON = "runners/python-runner";
const STATIC_URI = "skill://review/static-bug-analysis/SKILL.md";
const PYTHON_MD = ".ucagent/skills/runners/python-runner/SKILL.md";
const ALL_DONE =
  "All stages completed successfully. Now you should review your work to check if everything is correct and all the users needs are matched.";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `serve` without --workspace: it seeds <SKILLGATE_HOME>/workspaces/default with the example target itself. */
async function connect(transport: "stdio" | "http"): Promise<Client> {
  const base = tempRoot("skillgate-mcp-e2e-");
  cleanups.push(base.cleanup);
  const { env } = isolateHome(base.dir, {
    create: false,
    extraEnv: { HOME: base.path("user"), NO_COLOR: "1" },
  });
  if (transport === "stdio") {
    const connection = await connectStdio([], env);
    cleanups.push(() => connection.close());
    return connection.client;
  }
  const server = await startHttpServer([], env);
  cleanups.push(() => server.stop());
  const client = await connectHttp(server.url);
  cleanups.push(() => client.close());
  return client;
}

const status = async (client: ValidatingClient) => (await client.ok("Status")).structured;
const stageSkill = async (client: ValidatingClient, id: string) =>
  ((await status(client)).skills as { id: string; listed: boolean; read: boolean; used: boolean }[]).find(
    (row) => row.id === id,
  );

describe.each(["stdio", "http"] as const)("the default workflow over %s, MCP requests only", (transport) => {
  it("stage 0 with SKILL.md loaded natively (resources/read), stage 1 with ReadTextFile, outputs written by file tools", async () => {
    const raw = await connect(transport);
    const client = new ValidatingClient(raw);

    // Stage 0: the prompt starts it; the gate needs list + read of the forced skill.
    const prompt = await raw.getPrompt({ name: "current_stage" });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(
      "You are working on stage 0 'static_bug_analysis' of a skillgate workflow.",
    );
    await client.ok("ReadTextFile", { path: "guide_doc/static_bug_analysis.md" });
    const dutInfo = await client.ok("GetFileInfo", { path: "dut" });
    const dut = (dutInfo.text.match(/^Absolute path: (.+)$/m) ?? [])[1]!;
    expect(dut).toMatch(/workspaces\/default\/dut$/);
    const listing = await client.ok("PathList", { path: "dut", depth: 0 });
    expect(listing.text).toContain("dut/inventory.py    (type: text,");
    const search = await client.ok("SearchText", { pattern: "def total_value_cents", directory: "dut" });
    expect(search.text).toMatch(/^Found 1 matching line in 1 file\.\n\ndut\/inventory\.py:\n```text\n/);

    await client.ok("ListSkill");
    const listed = await rpc(raw, "skills/list");
    expect(listed.skills[0].uri).toBe(STATIC_URI);
    expect((await stageSkill(client, STATIC))?.read).toBe(false);
    // Listed but not read yet: the gate refuses Complete and runs no checker.
    const gated = await client.call("Complete");
    expect(gated.structured).toMatchObject({ code: "SKILL_USAGE_INCOMPLETE", checkers_run: 0 });
    expect(gated.text).toContain("- review/static-bug-analysis: Listed yes, Read no,");
    const skillMd = await raw.readResource({ uri: STATIC_URI });
    expect(skillMd.contents[0]).toMatchObject({ mimeType: "text/markdown" });
    expect(await stageSkill(client, STATIC)).toMatchObject({ listed: true, read: true });
    // Every digest is the sha256 of the bytes resources/read returns.
    for (const resource of listed.skills[0].resources as { uri: string; digest: string }[]) {
      const content = (await raw.readResource({ uri: resource.uri })).contents[0] as {
        text?: string;
        blob?: string;
      };
      const bytes =
        content.text !== undefined ? Buffer.from(content.text) : Buffer.from(content.blob!, "base64");
      expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`).toBe(resource.digest);
    }
    await expect(raw.callTool({ name: "WriteFile", arguments: {} })).rejects.toMatchObject({ code: -32602 });

    const written = await client.ok("EditTextFile", {
      path: "out/static_bug_analysis.md",
      content: analysisMarkdown(PLANTED),
    });
    expect(written.text).toMatch(/^Created 'out\/static_bug_analysis\.md' with \d+ characters\. SHA256: /);
    expect((await client.ok("Check")).structured.check_pass).toBe(true);
    await client.ok("SetSkillUsage", {
      skill_usage: {
        [STATIC]: {
          list: true,
          read: true,
          use: false,
          reason: "the defects were recorded by hand with EditTextFile in the guide's format",
        },
      },
    });
    const done0 = await client.ok("Complete");
    expect(done0.text.split("\n")[0]).toBe(
      "Stage 0 completed successfully. Current stage index is now 1: 'bug_reproduction'.",
    );

    // Stage 1: SKILL.md through ReadTextFile; reproduction scripts written by EditTextFile, run by the runner skill.
    await client.ok("ListSkill");
    const read = await client.ok("ReadTextFile", { path: PYTHON_MD });
    expect(read.structured.skill_read).toEqual({ skill_id: PYTHON, read_complete: true });
    const scripts = PYTHON_REPROS.map((repro, index) => {
      const rel = `out/scripts/repro_bug_${String(index + 1).padStart(3, "0")}.py`;
      return { rel, content: pythonRepro(dut, repro) };
    });
    for (const script of scripts)
      await client.ok("EditTextFile", { path: script.rel, content: script.content });
    const run = await client.ok("RunSkillScript", {
      commands: scripts.map((script) => [PYTHON, "run_uv_script.py", script.rel]),
    });
    const runs: ReproRun[] = (run.structured.commands as { output: string }[]).map((record, index) => {
      const observed = record.output.trim().split("\n").at(-1)!;
      expect(observed).toBe(PYTHON_REPROS[index]!.observed);
      return {
        bug: bugId(index),
        command: `RunSkillScript runners/python-runner run_uv_script.py ${scripts[index]!.rel}`,
        observed,
        verdict: "reproduced",
      };
    });
    // A first draft with a bad verdict fails Check; fixing it in place with ReplaceStringInFile passes.
    const draft = reproductionMarkdown(runs).replace("- **Verdict**: reproduced", "- **Verdict**: maybe");
    const drafted = await client.ok("EditTextFile", { path: "out/reproduction.md", content: draft });
    const failed = await client.call("Check");
    expect(failed.structured.code).toBe("CHECK_FAILED");
    await client.ok("ReplaceStringInFile", {
      path: "out/reproduction.md",
      old_string: "- **Verdict**: maybe",
      new_string: "- **Verdict**: reproduced",
      expected_sha256: drafted.structured.after_sha256,
    });
    expect((await client.ok("Check")).structured.check_pass).toBe(true);
    expect((await client.ok("Complete")).text.split("\n")[0]).toBe(
      "Stage 1 completed successfully. Current stage index is now 2: 'summary'.",
    );

    // Stage 2: no skills; the prompt follows the stage.
    const prompt2 = await raw.getPrompt({ name: "current_stage" });
    expect((prompt2.messages[0]!.content as { text: string }).text).toContain("stage 2 'summary'");
    await client.ok("ReadTextFile", { path: "guide_doc/summary.md" });
    await client.ok("EditTextFile", { path: "out/summary.md", content: summaryMarkdown(PLANTED, runs) });
    await client.ok("Check");
    const done = await client.ok("Complete");
    expect(done.text).toBe(ALL_DONE);
    expect((await status(client)).finished).toBe(true);
    const outputs = await client.ok("FindFiles", { pattern: "*.md", directory: "out" });
    expect(outputs.structured.files).toEqual([
      "out/reproduction.md",
      "out/static_bug_analysis.md",
      "out/summary.md",
    ]);
    expect(client.validated).toBeGreaterThan(25);
  }, 240_000);
});
