// Start-up through real processes: a broken workflow stops init/serve/call at once; serve restores the skill copy.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectStdio, MAIN, TSX } from "../mcp/helpers.js";
import type { ProcessOutcome } from "../support/process.js";
import { REPO_ROOT, removeTree } from "../tools/helpers.js";
import { fixturesForFile, flags, skillgate } from "./helpers.js";

/** `serve` over stdio with stdin left open: a broken workflow must make it exit by itself. */
function serveUntilExit(args: string[], env: NodeJS.ProcessEnv): Promise<ProcessOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [MAIN, "serve", ...args], { cwd: REPO_ROOT, env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not exit on a broken workflow:\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

const fixture = fixturesForFile();

describe("a broken workflow stops init, serve and call at once with UCAgent's message", () => {
  const FIX =
    "Fix the stage config (skill_list entries are paths below the workspace skill folder) and start again.";
  const rows = [
    {
      what: "a missing skill",
      skills: ["fixture/missing"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill 'fixture/missing' is not found in workspace. (stage[0].skill_list[0]: no skill 'fixture/missing' in .ucagent/skills; fix the id (a path below the skill root) or remove it.)",
    },
    {
      what: "a skill outside the root",
      skills: ["../outside"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill '../outside' is outside the workspace skill directory. (stage[0].skill_list[0]: absolute paths and '..' are not allowed; use the path below .ucagent/skills, e.g. 'review/static-bug-analysis'.)",
    },
    {
      what: "a skill whose SKILL.md does not parse",
      skills: ["ext/bad-skill"],
      code: "WORKFLOW_INVALID",
      sentence:
        "  - Stage 'report' skill 'ext/bad-skill' is not found in workspace. (stage[0].skill_list[0]: .ucagent/skills/ext/bad-skill/SKILL.md does not load: ",
    },
    {
      what: "a skill_list that is not a list",
      skills: "fixture/gate-skill" as unknown as string[],
      code: "CONFIG_INVALID",
      sentence: "stage[0].skill_list: Stage 'report' skill_list must be a list. (expected a list, got",
    },
  ];

  it.each(rows)("$what: init, call and serve exit 1 naming it", async ({ skills, code, sentence }) => {
    const f = fixture({ stageSkills: skills });
    const bad = join(f.dir, "bad-skill");
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, "SKILL.md"), "no frontmatter here\n");
    const extra = ["--extra-skill-path", bad];
    const outcomes = [
      await skillgate(["init", f.ws, "--config", f.configFile, ...extra], f.env),
      await skillgate(["call", "Status", ...flags(f), ...extra], f.env),
      await serveUntilExit([...flags(f), ...extra], f.env),
    ];
    for (const outcome of outcomes) {
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toContain(`error [${code}]: `);
      expect(outcome.stderr).toContain(sentence);
      if (code === "WORKFLOW_INVALID") {
        expect(outcome.stderr).toContain(`the workflow of workspace ${f.ws} cannot start (1 error):\n`);
        expect(outcome.stderr).toContain(FIX);
      }
      expect(outcome.stdout).toBe("");
    }
  });
});

describe("skills missing with skills enabled", () => {
  it("call answers 'The workspace skill folder .ucagent/skills is missing' with a fix that works: init in the workspace folder", async () => {
    const f = fixture();
    expect((await skillgate(["call", "Status", ...flags(f)], f.env)).code).toBe(0);
    removeTree(join(f.ws, ".ucagent", "skills"));
    const missing = await skillgate(["call", "ListSkill", ...flags(f)], f.env);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe(
      "ListSkill failed [SKILL_ROOT_MISSING]:\nThe workspace skill folder .ucagent/skills is missing. To restore it, run `skillgate init .` in the workspace folder with the same --config and --extra-skill-path flags this session was started with (the running tools pick the copy up at once, no restart needed), or restart `skillgate serve`, which restores it at start. To work without skills, restart with --no-use-skill.\n",
    );
    expect(missing.stdout).not.toContain(f.dir);
    // Exactly what the text says, run where it says.
    expect((await skillgate(["init", ".", "--config", f.configFile], f.env, f.ws)).code).toBe(0);
    const listed = await skillgate(["call", "ListSkill", ...flags(f)], f.env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^Found 1 available skills:\n1\. Skill Name: gate-skill\n/);
  });

  it("a running server picks the restored copy up; a restarted server restores it at start", async () => {
    const f = fixture();
    const first = await connectStdio(flags(f), f.env);
    try {
      removeTree(join(f.ws, ".ucagent", "skills"));
      const gone = await first.client.callTool({ name: "ListSkill", arguments: {} });
      expect(gone.isError).toBe(true);
      expect((gone.content as { text: string }[])[0]?.text).toMatch(
        /^The workspace skill folder \.ucagent\/skills is missing\. To restore it, run `skillgate init \.` in the workspace folder/,
      );
      expect((await skillgate(["init", ".", "--config", f.configFile], f.env, f.ws)).code).toBe(0);
      const back = await first.client.callTool({ name: "ListSkill", arguments: {} });
      expect(back.isError).toBeFalsy();
    } finally {
      await first.close();
    }
    removeTree(join(f.ws, ".ucagent", "skills"));
    const second = await connectStdio(flags(f), f.env);
    try {
      expect(existsSync(join(f.ws, ".ucagent", "skills", "fixture", "gate-skill", "SKILL.md"))).toBe(true);
      const listed = await second.client.callTool({ name: "ListSkill", arguments: {} });
      expect(listed.isError).toBeFalsy();
      expect((listed.content as { text: string }[])[0]?.text).toMatch(/^Found 1 available skills:/);
    } finally {
      await second.close();
    }
  });
});
