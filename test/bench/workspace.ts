// Bench fixture: a generated pack with one skill holding the same tiny helper as .ts (tsx), .mjs (node) and .py, initialised as a real workspace.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { type OpenedSession, openSession } from "../../runtime/tools/session.js";
import { isolateHome, tempRoot } from "../support/workspace.js";

export const BENCH_SKILL = "bench/helpers";

/** The helper body: parse its args, compute a little, print one line (same code in every language). */
export const HELPER_TS = `const args: string[] = process.argv.slice(2);
const total: number = args.map((arg) => arg.length).reduce((sum, length) => sum + length, 0);
console.log(\`helper ok \${args.length} args \${total} chars\`);
`;
export const HELPER_MJS = `const args = process.argv.slice(2);
const total = args.map((arg) => arg.length).reduce((sum, length) => sum + length, 0);
console.log(\`helper ok \${args.length} args \${total} chars\`);
`;
export const HELPER_PY = `import sys
args = sys.argv[1:]
total = sum(len(arg) for arg in args)
print(f"helper ok {len(args)} args {total} chars")
`;

export interface BenchWorkspace {
  dir: string;
  ws: string;
  home: string;
  pack: string;
  configFile: string;
  env: NodeJS.ProcessEnv;
  /** Absolute path of a helper inside the initialised workspace copy. */
  scriptPath(name: string): string;
  open(): Promise<OpenedSession>;
  cleanup(): void;
}

export interface BenchWorkspaceOptions {
  sandboxLevel?: 1 | 2 | 3;
  /** Extra generated skills (plain SKILL.md) in the pack, for catalog-heavy benches. */
  extraSkills?: number;
  /** exec.max_parallel_runs (default: the config default, "cores"). */
  maxParallelRuns?: "cores" | number;
}

function skillMd(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nRun the helper with RunSkillScript.\n`;
}

/** Creates pack, config and home in a temp dir, sets SKILLGATE_HOME for this process; init runs on first open(). */
export function makeBenchWorkspace(options: BenchWorkspaceOptions = {}): BenchWorkspace {
  const temp = tempRoot("skillgate-bench-");
  const dir = temp.dir;
  const ws = join(dir, "ws");
  const pack = join(dir, "pack");
  const skill = join(pack, "bench", "helpers");
  mkdirSync(join(skill, "scripts"), { recursive: true });
  writeFileSync(
    join(skill, "SKILL.md"),
    skillMd("helpers", "Bench helpers - the same tiny script in TS, JS and Python."),
  );
  writeFileSync(join(skill, "scripts", "helper.ts"), HELPER_TS);
  writeFileSync(join(skill, "scripts", "helper.mjs"), HELPER_MJS);
  writeFileSync(join(skill, "scripts", "helper.py"), HELPER_PY);
  writeFileSync(join(skill, "scripts", "script_runner.json"), JSON.stringify({ "helper.ts": "tsx" }));
  writeFileSync(
    join(pack, "script_runner.json"),
    JSON.stringify({ ".ts": "tsx", ".js": "node", ".mjs": "node" }),
  );
  for (let i = 0; i < (options.extraSkills ?? 0); i++) {
    const extra = join(pack, "extra", `skill-${i}`);
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, "SKILL.md"), skillMd(`skill-${i}`, `Generated skill ${i} for the bench.`));
  }
  const configFile = join(dir, "config.yaml");
  writeFileSync(
    configFile,
    stringify({
      DUT: "dut",
      OUT: "out",
      skill: { use_skill: true, pack_path: pack, general_skill_list: [], max_skill_list_count: 15 },
      exec: {
        sandbox_level: options.sandboxLevel ?? 2,
        timeout_seconds: 60,
        ...(options.maxParallelRuns === undefined ? {} : { max_parallel_runs: options.maxParallelRuns }),
      },
      stage: [
        {
          name: "bench",
          desc: "Bench stage.",
          task: ["Run the helpers."],
          output_files: ["{OUT}/done.md"],
          checker: [{ kind: "file_exists", args: { path: "{OUT}/done.md" } }],
          skill_list: [BENCH_SKILL],
          force_use_skill: true,
        },
      ],
    }),
  );
  const { home, env } = isolateHome(dir, { setProcess: true, create: false, extraEnv: { NO_COLOR: "1" } });
  return {
    dir,
    ws,
    home,
    pack,
    configFile,
    env,
    scriptPath: (name) => join(ws, ".ucagent", "skills", "bench", "helpers", "scripts", name),
    open: () => openSession({ workspace: ws, configFile, env }),
    cleanup: temp.cleanup,
  };
}
