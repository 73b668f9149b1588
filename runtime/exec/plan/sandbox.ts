// Chooses the OS sandbox of a run (bwrap, sandbox-exec or none) and says when a level cannot be honoured.
import { access } from "node:fs/promises";
import { join } from "node:path";
import { skillgateHome } from "../../config/index.js";
import { type BwrapFeatures, probeBwrap } from "../bwrap-probe.js";
import { outcomes, type RunOutcome } from "../outcome.js";
import { findExecutable } from "../runner.js";
import type { RunRequest } from "../types.js";

export interface SandboxChoice {
  kind: "bwrap" | "sandbox-exec" | "none";
  bwrap?: string;
  features?: BwrapFeatures;
  reason?: string;
}

/** The unsandboxed warning is given once per process, as promised by the opt-in. */
let unsandboxedWarningGiven = false;

/** Lets tests observe the once-per-process warning from a clean state. */
export function resetUnsandboxedWarning(): void {
  unsandboxedWarningGiven = false;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function chooseSandbox(
  req: RunRequest,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): Promise<SandboxChoice> {
  if (req.sandboxLevel === 1) return { kind: "none" };
  if (platform === "linux") {
    const bwrap =
      req.bwrapPath ?? env.SKILLGATE_BWRAP ?? findExecutable("bwrap", env.PATH) ?? "bwrap (not on PATH)";
    const probe = await probeBwrap(bwrap, join(skillgateHome(env), "cache", "bwrap-probe"));
    return probe.ok
      ? { kind: "bwrap", bwrap, features: probe.features }
      : { kind: "none", reason: probe.reason };
  }
  if (platform === "darwin") {
    return (await exists("/usr/bin/sandbox-exec"))
      ? { kind: "sandbox-exec" }
      : { kind: "none", reason: "/usr/bin/sandbox-exec is missing" };
  }
  return { kind: "none", reason: `no OS sandbox is implemented for platform ${platform}` };
}

/** Refuses a level-2/3 run without its sandbox unless opted in; the warnings the choice implies otherwise. */
export function sandboxVerdict(
  req: RunRequest,
  script: string,
  sandbox: SandboxChoice,
): { refusal: RunOutcome } | { warnings: string[] } {
  const warnings: string[] = [];
  if (sandbox.kind === "none" && req.sandboxLevel > 1) {
    if (!req.allowUnsandboxed) {
      return {
        refusal: outcomes.unavailable(
          `cannot run script '${script}' at sandbox level ${req.sandboxLevel}: ${sandbox.reason}`,
          "apt-get install bubblewrap (Linux), or set exec.allow_unsandboxed: true to run it without the OS sandbox",
        ),
      };
    }
    if (!unsandboxedWarningGiven) {
      unsandboxedWarningGiven = true;
      warnings.push(
        `SANDBOX_UNAVAILABLE: scripts run WITHOUT the OS sandbox (${sandbox.reason}) because exec.allow_unsandboxed is true; only resource limits apply`,
      );
    }
  }
  if (sandbox.features && !sandbox.features.disableUserns) {
    warnings.push(
      "this bubblewrap has no --disable-userns (needs >= 0.8): scripts may create nested user namespaces; fix: upgrade bubblewrap",
    );
  }
  return { warnings };
}
