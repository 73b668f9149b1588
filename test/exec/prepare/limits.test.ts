// runtime/exec/prepare/limits.ts (root): a run's cgroup sized for its limits, the prlimit argv really applied to a process, and the warnings when a limit is weaker.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../../runtime/exec/cgroup.js";
import { hardNprocLimit } from "../../../runtime/exec/plan/host-tools.js";
import { limitArgv, runCgroup } from "../../../runtime/exec/prepare/limits.js";
import type { RunLimits } from "../../../runtime/exec/types.js";
import { POLL_DEADLINE_MS } from "../../support/poll.js";
import { tempRoot } from "../../support/workspace.js";

const MIB = 1024 * 1024;
const LIMITS: RunLimits = {
  timeoutMs: 3_000,
  memoryBytes: 128 * MIB,
  outputBytes: 65_536,
  maxProcesses: 64,
  maxFileSizeBytes: 8 * MIB,
  maxOpenFiles: 48,
};
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();
const temp = tempRoot("skillgate-limits-", { realpath: true });
afterAll(() => temp.cleanup());
let serial = 0;
const runId = (): string => `sg-mirror-limits-${process.pid}-${serial++}`;

const NO_CGROUP_PROCESS_WARNING = (root: string) =>
  `process limit not enforced: running as root (RLIMIT_NPROC does not apply) and no pids cgroup controller under ${root}; fix: run skillgate as a normal user or give it a pids cgroup controller`;
const RSS_ONLY_WARNING =
  "memory limit counts resident memory only (no memory cgroup: skillgate is not root or the controller is missing), so tmpfs files and memfds are not counted; fix: run skillgate as root with the memory controller for a full limit";

describe("runCgroup", () => {
  it("sizes the cgroup for bwrap's own two processes and gives memory 16 MiB of slack", () => {
    const { cgroup, warnings } = runCgroup(runId(), LIMITS, true, "linux", undefined);
    try {
      expect(warnings).toEqual([]);
      expect(readFileSync(join(cgroup?.dir as string, "pids.max"), "utf8").trim()).toBe("66");
      expect(Number(readFileSync(join(cgroup?.memoryDir as string, "memory.limit_in_bytes"), "utf8"))).toBe(
        144 * MIB,
      );
    } finally {
      cgroup?.destroy();
    }
    const direct = runCgroup(runId(), LIMITS, false, "linux", undefined);
    try {
      expect(readFileSync(join(direct.cgroup?.dir as string, "pids.max"), "utf8").trim()).toBe("64");
    } finally {
      direct.cgroup?.destroy();
    }
  });

  it("uses the cgroup a prepared sandbox already made instead of a new one", () => {
    const made = createPidsCgroup(runId(), 66, undefined, 144 * MIB);
    if (!("cgroup" in made)) throw new Error(made.reason);
    try {
      expect(runCgroup("sg-unused", LIMITS, true, "linux", undefined, made.cgroup)).toEqual({
        cgroup: made.cgroup,
        warnings: [],
      });
    } finally {
      made.cgroup.destroy();
    }
  });

  it("says which limits are weaker when root has no cgroup controller", () => {
    expect(runCgroup(runId(), LIMITS, true, "linux", temp.dir)).toEqual({
      cgroup: null,
      warnings: [NO_CGROUP_PROCESS_WARNING(temp.dir), RSS_ONLY_WARNING],
    });
    // The resident-memory caveat is about Linux's cgroups; elsewhere only the process limit is said.
    expect(runCgroup(runId(), LIMITS, true, "darwin", temp.dir).warnings).toEqual([
      NO_CGROUP_PROCESS_WARNING(temp.dir),
    ]);
  });
});

describe("limitArgv", () => {
  it("caps processes, file size, open files, core and data, with a 1 GiB floor for runtimes that reserve more", async () => {
    expect(await limitArgv(LIMITS, undefined, true, "linux", undefined)).toEqual({
      argv: [
        expect.stringMatching(/\/prlimit$/),
        "--nproc=64",
        `--fsize=${8 * MIB}`,
        "--nofile=48",
        "--core=0",
        `--data=${1024 * MIB}`,
        "--",
      ],
      warnings: [],
    });
    const big = await limitArgv({ ...LIMITS, memoryBytes: 1024 * MIB }, undefined, true, "linux", undefined);
    expect(big.argv).toContain(`--data=${2048 * MIB}`);
  });

  it("applies the limits to the real process it starts", async () => {
    const { argv } = await limitArgv(LIMITS, undefined, true, "linux", undefined);
    const out = execFileSync(
      argv[0] as string,
      [
        ...argv.slice(1),
        PYTHON,
        "-c",
        "import resource as r; print(*(r.getrlimit(k)[0] for k in (r.RLIMIT_NPROC, r.RLIMIT_FSIZE, r.RLIMIT_NOFILE, r.RLIMIT_CORE)))",
      ],
      { encoding: "utf8" },
    );
    expect(out).toBe(`64 ${8 * MIB} 48 0\n`);
  });

  it("for the shared sandbox uid under a cgroup: the hard limit, since runs of that uid would count each other", async () => {
    const { argv } = await limitArgv(LIMITS, undefined, true, "linux", 2_147_000_001);
    expect(argv[1]).toBe(`--nproc=${await hardNprocLimit()}`);
  });

  it("for a normal user without a cgroup: max on top of the tasks the user already has", async () => {
    const uid = 2_147_300_000 + (process.pid % 100_000);
    const busy = spawn("setpriv", [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "sleep", "30"], {
      stdio: "ignore",
    });
    try {
      const deadline = Date.now() + POLL_DEADLINE_MS;
      let argv: string[] = [];
      // Poll until the user's sleep is counted (setpriv has exec'ed it).
      for (;;) {
        argv = (await limitArgv(LIMITS, undefined, false, "linux", uid)).argv;
        if (argv[1] === "--nproc=65" || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(argv[1]).toBe("--nproc=65");
    } finally {
      busy.kill("SIGKILL");
    }
  });

  it("says so when prlimit is missing", async () => {
    expect(await limitArgv(LIMITS, temp.path("no-tools"), true, "linux", undefined)).toEqual({
      argv: [],
      warnings: [
        "resource limits (processes, file size, open files, core) not set: prlimit (util-linux) is missing",
      ],
    });
  });
});
