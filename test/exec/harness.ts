// Test harness for real script runs: a temp workspace with a skill, request building and host-state probes.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { resolveRunner } from "../../runtime/exec/index.js";
import type { RunLimits, RunRequest } from "../../runtime/exec/types.js";
import { tempRoot } from "../support/workspace.js";

export const SMALL_LIMITS: RunLimits = {
  timeoutMs: 3_000,
  memoryBytes: 128 * 1024 * 1024,
  outputBytes: 64 * 1024,
  maxProcesses: 64,
  maxFileSizeBytes: 8 * 1024 * 1024,
  maxOpenFiles: 64,
};

export interface Harness {
  root: string;
  ws: string;
  out: string;
  skillsRoot: string;
  skillDir: string;
  scriptsDir: string;
  /** Writes `content` as scripts/<name> and returns its path. */
  addScript(name: string, content: string): string;
  /** Copies a fixture file into scripts/. */
  copyScript(source: string): string;
  request(scriptName: string, overrides?: Partial<RunRequest>): Promise<RunRequest>;
  cleanup(): void;
}

export function makeHarness(prefix = "skillgate-exec-"): Harness {
  const temp = tempRoot(prefix, { realpath: true });
  const root = temp.dir;
  const ws = join(root, "ws");
  const out = join(ws, "out");
  const skillsRoot = join(ws, ".ucagent", "skills");
  const skillDir = join(skillsRoot, "tests", "hostile");
  const scriptsDir = join(skillDir, "scripts");
  mkdirSync(scriptsDir, { recursive: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(skillsRoot, "script_runner.json"),
    JSON.stringify({ ".ts": "tsx", ".js": "node", ".mjs": "node" }),
  );
  return {
    root,
    ws,
    out,
    skillsRoot,
    skillDir,
    scriptsDir,
    addScript(name, content) {
      const path = join(scriptsDir, name);
      writeFileSync(path, content);
      chmodSync(path, 0o755);
      return path;
    },
    copyScript(source) {
      const path = join(scriptsDir, basename(source));
      copyFileSync(source, path);
      return path;
    },
    async request(scriptName, overrides = {}) {
      const scriptPath = join(scriptsDir, scriptName);
      const { runner } = await resolveRunner({ scriptPath, skillDir, skillsRoot });
      return {
        runner,
        scriptPath,
        args: [],
        cwd: ws,
        skillDir,
        writablePaths: [ws],
        env: { DUT: join(ws, "dut"), OUT: out },
        network: false,
        limits: SMALL_LIMITS,
        sandboxLevel: 2,
        allowUnsandboxed: false,
        ...overrides,
      };
    },
    cleanup: temp.cleanup,
  };
}

export { processesWithMarker, sha256, survivors } from "../support/host-probes.js";
