// First stage of a run: the level-3 gate, the sandbox choice, the command, the toolchain on PATH and the env allow-list.
import { homedir } from "node:os";
import { basename, dirname } from "node:path";
import { installationPrefix } from "../bwrap.js";
import { filterRunEnv } from "../env.js";
import type { RunOutcome } from "../outcome.js";
import { CACHE_ENV_NAMES } from "../run-plan.js";
import { ownBinDir } from "../runner.js";
import { scanGate } from "../scan-gate.js";
import type { RunRequest, ScanFinding } from "../types.js";
import { hostToolchain, SYSTEM_PATH } from "./host-tools.js";
import { chooseSandbox, type SandboxChoice, sandboxVerdict } from "./sandbox.js";

export interface ExecPlan {
  req: RunRequest;
  runId: string;
  /** The script's file name, as every message names it. */
  script: string;
  /** runner, script, args: what runs inside the sandbox. */
  command: string[];
  platform: NodeJS.Platform;
  sandbox: SandboxChoice;
  findings?: ScanFinding[];
  /** Installation prefixes of the runner, node and the toolchain: bound read-only. */
  toolPrefixes: string[];
  /** skillgate's node_modules (bundled runners): bound read-only. */
  ownModules: string | null;
  /** The script's env without HOME and TMPDIR (set once the scratch folders exist). */
  env: Record<string, string>;
  warnings: string[];
}

/** A run stopped before anything was prepared: the outcome plus what was learnt on the way. */
export interface Stopped {
  outcome: RunOutcome;
  sandboxed: boolean;
  findings?: ScanFinding[];
  warnings: string[];
}

export async function planRun(
  req: RunRequest,
  runId: string,
  platform: NodeJS.Platform,
  hostEnv: NodeJS.ProcessEnv,
): Promise<{ plan: ExecPlan } | { stopped: Stopped }> {
  const script = req.scriptName ?? basename(req.scriptPath);
  let findings: ScanFinding[] | undefined;
  if (req.sandboxLevel === 3) {
    const gate = await scanGate(req);
    if (gate.refusal !== null) {
      return {
        stopped: {
          outcome: gate.refusal,
          sandboxed: true,
          warnings: [],
          ...(gate.findings ? { findings: gate.findings } : {}),
        },
      };
    }
    findings = gate.findings;
  }
  const sandbox = await chooseSandbox(req, platform, hostEnv);
  const verdict = sandboxVerdict(req, script, sandbox);
  if ("refusal" in verdict) {
    return {
      stopped: {
        outcome: verdict.refusal,
        sandboxed: false,
        warnings: [],
        ...(findings ? { findings } : {}),
      },
    };
  }
  const warnings = [...verdict.warnings];
  const tools = [req.runner, process.execPath, ...(await hostToolchain(hostEnv.PATH))];
  const toolPrefixes = tools
    .map((tool) => installationPrefix(tool, homedir()))
    .filter((prefix): prefix is string => prefix !== null);
  const ownBin = ownBinDir();
  const pathDirs = [
    ...new Set([...tools.map((tool) => dirname(tool)), ...(ownBin === null ? [] : [ownBin]), ...SYSTEM_PATH]),
  ];
  const filtered = filterRunEnv(req.env, CACHE_ENV_NAMES);
  if (filtered.dropped.length > 0) {
    warnings.push(
      `environment variables not passed to the script (not allowed): ${filtered.dropped.join(", ")}`,
    );
  }
  return {
    plan: {
      req,
      runId,
      script,
      command: [req.runner, req.scriptPath, ...req.args],
      platform,
      sandbox,
      ...(findings ? { findings } : {}),
      toolPrefixes,
      ownModules: ownBin === null ? null : dirname(ownBin),
      env: { ...filtered.env, PATH: pathDirs.join(":"), LANG: "C.UTF-8", SKILLGATE_RUN_ID: runId },
      warnings,
    },
  };
}
