// Second stage of a run: scratch folders, cgroup, network, the bwrap sandbox set-up and the final argv.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { skillgateHome } from "../../config/index.js";
import { isSkillgateError } from "../../errors.js";
import { type BwrapPlan, bwrapArgv } from "../bwrap.js";
import type { PidsCgroup } from "../cgroup.js";
import { noteGrantArea } from "../grant-prune.js";
import { DEFAULT_SANDBOX_UID } from "../identity.js";
import { macosSandboxProfile } from "../macos-profile.js";
import { outcomes, splitFix } from "../outcome.js";
import { levelOneGuard, SYSTEM_PATH } from "../plan/host-tools.js";
import type { ExecPlan, Stopped } from "../plan/plan.js";
import { prepareSandbox, type SandboxSetup } from "../sandbox-setup.js";
import { sensitiveHomePaths } from "../sensitive.js";
import { limitArgv, runCgroup } from "./limits.js";
import { userNetFor } from "./network.js";
import { prepareScratch, type Scratch } from "./scratch.js";
import { type AreaWatch, budgetWatch, DEFAULT_WORKSPACE_BUDGET } from "./workspace-budget.js";

export interface Prepared {
  argv: string[];
  /** Environment of the spawned program: bwrap gets a minimal one and sets the script's own. */
  spawnEnv: Record<string, string>;
  cgroup: PidsCgroup | null;
  setup: SandboxSetup | null;
  /** bwrap reports its sandbox pid and waits, so cgroup and network attach before the script starts. */
  handshake: boolean;
  slirp: string | null;
  scratch: Scratch;
  /** The workspace budget's watch, or null when it cannot be enforced (said in a warning). */
  area: AreaWatch | null;
  warnings: string[];
}

/** One grant cache per sandbox uid and writable area, in skillgate's home (never bound into a sandbox). */
function grantCacheFile(hostEnv: NodeJS.ProcessEnv, uid: number, writable: readonly string[]): string {
  const key = createHash("sha256")
    .update(JSON.stringify([uid, ...writable]))
    .digest("hex")
    .slice(0, 16);
  return join(skillgateHome(hostEnv), "cache", "acl-grants", `${key}.json`);
}

export async function prepareRun(
  plan: ExecPlan,
  hostEnv: NodeJS.ProcessEnv,
  cgroupRoot: string | undefined,
  /** The cgroup of a prepared sandbox this run may use (exec/prepared): made for the same limits, so not made again. */
  existingCgroup?: PidsCgroup,
): Promise<{ prepared: Prepared } | { stopped: Stopped }> {
  const { req, sandbox, platform } = plan;
  const bwrap = sandbox.kind === "bwrap";
  const sandboxed = sandbox.kind !== "none";
  const warnings = [...plan.warnings];
  const scratch = await prepareScratch(req, bwrap);
  const env = { ...plan.env, HOME: scratch.home, TMPDIR: scratch.tmp };
  const limits = req.limits;
  const made = runCgroup(plan.runId, limits, bwrap, platform, cgroupRoot, existingCgroup);
  const cgroup = made.cgroup;
  warnings.push(...made.warnings);
  const stop = async (outcome: Stopped["outcome"]): Promise<{ stopped: Stopped }> => {
    cgroup?.destroy();
    await scratch.remove();
    return {
      stopped: { outcome, sandboxed, warnings, ...(plan.findings ? { findings: plan.findings } : {}) },
    };
  };
  const net = bwrap ? await userNetFor(plan.script, req.network) : { slirp: null };
  if ("refusal" in net) return stop(net.refusal);
  const handshake = bwrap && (cgroup !== null || req.network);
  const sensitivePaths = sensitiveHomePaths(homedir());
  // A normal user's slirp4netns must join the user namespace that owns the sandbox's network namespace. bwrap
  // nests a second one when the uid inside differs or --disable-userns is given; keep one level then (seccomp
  // still denies any new user namespace).
  const uid = process.getuid?.() ?? 0;
  const userNsForNetwork =
    bwrap && req.network && uid !== 0 && sandbox.features
      ? {
          innerId: { uid, gid: process.getgid?.() ?? uid },
          features: { ...sandbox.features, disableUserns: false },
        }
      : null;
  const ownModules = plan.ownModules === null ? [] : [plan.ownModules];
  const readOnlyPaths = [...new Set([...plan.toolPrefixes, ...ownModules, ...(req.readOnlyPaths ?? [])])];
  const base: BwrapPlan = {
    bwrap: sandbox.bwrap ?? "bwrap",
    command: plan.command,
    cwd: req.cwd,
    skillDir: req.skillDir,
    writablePaths: req.writablePaths,
    persistentPaths: scratch.writableExtras,
    readOnlyPaths,
    network: req.network,
    env,
    tmpSizeBytes: Math.min(limits.maxFileSizeBytes, 512 * 1024 * 1024),
    shmSizeBytes: Math.min(limits.maxFileSizeBytes, limits.memoryBytes),
    sensitivePaths,
    ...(req.pythonHook === undefined ? {} : { pythonHook: req.pythonHook }),
    ...(sandbox.features ? { features: sandbox.features } : {}),
    ...(handshake ? { infoFd: 3, blockFd: 4 } : {}),
    ...(userNsForNetwork ?? {}),
  };
  let setup: SandboxSetup | null = null;
  if (bwrap) {
    const uid = req.sandboxUid ?? DEFAULT_SANDBOX_UID;
    const grantCache = grantCacheFile(hostEnv, uid, req.writablePaths);
    await noteGrantArea(grantCache, req.writablePaths);
    try {
      setup = await prepareSandbox(
        {
          writablePaths: req.writablePaths,
          persistentPaths: scratch.writableExtras,
          ...(req.tmpDir === undefined ? {} : { tmpDir: req.tmpDir }),
          sensitivePaths,
          sandboxUid: uid,
          grantCacheFile: grantCache,
          network: req.network,
          firstFd: handshake ? 5 : 3,
        },
        base,
      );
    } catch (error) {
      if (!isSkillgateError(error)) throw error;
      const { message, fix } = splitFix(error.message);
      return stop(outcomes.unavailable(message, fix));
    }
    warnings.push(...setup.warnings);
  }
  const budget = await budgetWatch({
    writablePaths: req.writablePaths,
    ...(req.tmpDir === undefined ? {} : { tmpDir: req.tmpDir }),
    sensitivePaths,
    budget: req.workspaceBudget ?? DEFAULT_WORKSPACE_BUDGET,
    ...(setup ? { known: setup.scan } : {}),
  });
  warnings.push(...budget.warnings);
  const limited = await limitArgv(limits, hostEnv.PATH, cgroup !== null, platform, setup?.identity.uid);
  warnings.push(...limited.warnings);
  let argv: string[];
  if (setup !== null) {
    argv = [...limited.argv, ...setup.prefix, ...bwrapArgv({ ...base, ...setup.plan })];
  } else if (sandbox.kind === "sandbox-exec") {
    const profile = macosSandboxProfile({
      readPaths: [req.skillDir, req.cwd, ...readOnlyPaths],
      writePaths: [...req.writablePaths, ...scratch.writableExtras, ...(scratch.dir ? [scratch.dir] : [])],
      deniedPaths: sensitivePaths,
      network: req.network,
    });
    argv = [...limited.argv, "/usr/bin/sandbox-exec", "-p", profile, "--", ...plan.command];
  } else {
    argv = [...limited.argv, ...(platform === "linux" ? await levelOneGuard() : []), ...plan.command];
  }
  return {
    prepared: {
      argv,
      spawnEnv: bwrap ? { PATH: SYSTEM_PATH.join(":") } : env,
      cgroup,
      setup,
      handshake,
      slirp: net.slirp,
      scratch,
      area: budget.watch,
      warnings,
    },
  };
}
