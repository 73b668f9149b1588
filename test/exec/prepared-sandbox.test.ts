// Prepared sandboxes through the tools: same sandbox as a fresh run, one run each, discarded when the plan changes, none left at the end.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateTmpDir } from "../../runtime/exec/index.js";
import { sharedPreparedPool } from "../../runtime/exec/prepared/pool.js";
import type { CommandRecord } from "../../runtime/tools/run-skill-script.js";
import {
  type Bed,
  type Canaries,
  hostCanaries,
  makeBed,
  record,
  useBedHome,
} from "../adversarial/tool-bed.js";
import { stillRunning, survivors } from "../support/host-probes.js";

const ROOT = process.getuid?.() === 0;

/** Everything a script can see of its sandbox, with the run id and the kernel's mount ids taken out. */
const PROBE_PY = `import os, sys, socket, resource, errno
run = os.environ.get("SKILLGATE_RUN_ID", "")
out = []
def add(key, value):
    out.append(f"{key}={str(value).replace(run, '<run>')}")
add("argv", sys.argv[1:])
add("ids", (os.getuid(), os.getgid(), os.geteuid(), os.getgroups()))
add("pid", os.getpid())
add("cwd", os.getcwd())
add("host", socket.gethostname())
for line in open("/proc/self/status"):
    if line.split(":")[0] in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp", "Seccomp_filters"):
        add("status", line.strip())
for line in open("/proc/self/limits"):
    add("limit", " ".join(line.split()))
for line in open("/proc/self/mountinfo"):
    add("mount", " ".join(line.split()[3:]))
for line in open("/proc/self/uid_map"):
    add("uid_map", " ".join(line.split()))
add("net", sorted(line.split(":")[0].strip() for line in open("/proc/net/dev").readlines()[2:]))
for key in sorted(os.environ):
    add("env", f"{key}={os.environ[key]}")
add("tmp_before", sorted(os.listdir("/tmp")))
open("/tmp/left-by-an-earlier-run", "w").write("x")
for path in ("/proc/sys/kernel/core_pattern", os.path.join(os.getcwd(), ".git", "config"), "/etc/passwd"):
    try:
        open(path, "a").write("sg-hostile")
        add("write", f"{path} WRITTEN")
    except OSError as e:
        add("write", f"{path} {errno.errorcode.get(e.errno)}")
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
add("unshare", libc.unshare(0x10000000) == 0 or errno.errorcode.get(ctypes.get_errno()))
print("\\n".join(out))
`;

let bed: Bed;
let canaries: Canaries;
let restoreHome: () => void;
const pool = sharedPreparedPool();

async function probe(args = ""): Promise<CommandRecord> {
  const result = await bed.run("probe", "probe.py", args);
  const first = record(result);
  expect(first.status, result.text).toBe("ok");
  return first;
}

/** The probe's view with the lines that must differ between two runs (run id in the output) normalised. */
function view(run: CommandRecord): string {
  return run.output;
}

beforeAll(async () => {
  // A loaded machine must not turn a probe into a timeout (the limits are not what these tests are about).
  bed = await makeBed({
    skills: [{ name: "probe", scripts: { "probe.py": PROBE_PY } }],
    exec: { timeout_seconds: 60 },
  });
  restoreHome = useBedHome(bed);
  canaries = hostCanaries(bed);
  mkdirSync(join(bed.ws, "out"), { recursive: true });
});

afterAll(async () => {
  await pool?.close(true);
  restoreHome?.();
  bed?.cleanup();
});

describe("prepared sandboxes (root: cgroup hand-shake)", () => {
  beforeAll(() => {
    // Prepared sandboxes need the cgroup hand-shake, which needs root: without it this suite proves nothing.
    if (!ROOT) throw new Error("needs root (prepared sandboxes use the pids cgroup hand-shake)");
  });
  it("is on by default, and a prepared run sees exactly the sandbox a fresh run sees", async () => {
    expect(pool).not.toBeNull();
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    const before = canaries.snapshot();
    const start = { ...p.stats };
    const first = await probe("a b"); // fresh
    const second = await probe("a b"); // fresh; the same plan twice: the next sandbox is made now
    await p.settled();
    expect(p.stats.prepared).toBe(start.prepared + 1);
    expect(p.idlePids().length).toBeGreaterThan(0);
    const third = await probe("a b"); // served by the held sandbox
    expect(p.stats.adopted).toBe(start.adopted + 1);
    expect(view(third)).toBe(view(first));
    expect(view(second)).toBe(view(first));
    // /tmp is the sandbox's own tmpfs: its home plus the mount points of binds under /tmp (the workspace, and the
    // installation when the repo lives under /tmp, as in CI's clean clone).
    expect(first.output).toMatch(/^tmp_before=\[[^\]\n]*'home'/m);
    expect(first.output + third.output).not.toContain("left-by-an-earlier-run");
    expect(first.output).toMatch(/write=\/proc\/sys\/kernel\/core_pattern (EROFS|EACCES)/);
    expect(first.output).toContain("unshare=EPERM");
    expect(first.output).toMatch(/status=Seccomp:\s+2/);
    expect(first.output).toContain("net=['lo']");
    expect(new Set([first.run_id, second.run_id, third.run_id]).size).toBe(3);
    expect(canaries.snapshot()).toEqual(before);
    expect(await survivors(third.run_id as string)).toEqual([]);
  });

  it("never serves two runs with one sandbox: each run gets its own, /tmp starts empty every time", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    await probe("x");
    await probe("x");
    const ids = new Set<string>();
    for (let round = 0; round < 4; round++) {
      await p.settled();
      const adopted = p.stats.adopted;
      const held = new Set(p.idlePids());
      expect(held.size).toBeGreaterThan(0);
      const run = await probe("x");
      expect(p.stats.adopted).toBe(adopted + 1);
      expect(run.output).not.toContain("left-by-an-earlier-run");
      ids.add(run.run_id as string);
      // The sandbox that served the run is gone with it; the pool holds only a new one.
      await p.settled();
      for (const pid of p.idlePids()) expect(held.has(pid)).toBe(false);
      expect(await survivors(run.run_id as string)).toEqual([]);
    }
    expect(ids.size).toBe(4);
  });

  it("discards the held sandbox when the next run's plan differs: other args, other skill binds, a new .git", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    await probe("same");
    await probe("same");
    await p.settled();
    let held = p.idlePids();
    expect(held.length).toBeGreaterThan(0);
    let discarded = p.stats.discarded;
    const other = await probe("other args");
    expect(p.stats.discarded).toBe(discarded + 1);
    expect(other.output).toContain("argv=['other', 'args']");
    expect(await stillRunning(held)).toEqual([]);

    // A .git created by the agent after the sandbox was made must be read-only in the run: the held one is
    // not the run's sandbox any more.
    await probe("same");
    await probe("same");
    await p.settled();
    held = p.idlePids();
    expect(held.length).toBeGreaterThan(0);
    discarded = p.stats.discarded;
    mkdirSync(join(bed.ws, ".git"), { recursive: true });
    try {
      const run = await probe("same");
      expect(p.stats.discarded).toBe(discarded + 1);
      expect(run.output).toMatch(/write=\S+\/\.git\/config (EROFS|EACCES)/);
      expect(existsSync(join(bed.ws, ".git", "config"))).toBe(false);
    } finally {
      rmSync(join(bed.ws, ".git"), { recursive: true, force: true });
    }

    // A bound folder replaced by another one (same path, other inode: the run's host temp folder, made again
    // by the next call) is not the folder the held sandbox bound.
    await probe("same");
    await probe("same");
    await p.settled();
    discarded = p.stats.discarded;
    rmSync(await privateTmpDir(bed.ws), { recursive: true, force: true });
    const replaced = await probe("same");
    expect(p.stats.discarded).toBe(discarded + 1);
    expect(replaced.output).not.toContain("left-by-an-earlier-run");
  });

  it("leaves nothing when the pool closes: processes killed, cgroups removed", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    await probe("end");
    const last = await probe("end");
    await p.settled();
    const held = p.idlePids();
    expect(held.length).toBeGreaterThan(0);
    const cgroups = held.map((pid) => readFileSync(`/proc/${pid}/cgroup`, "utf8"));
    const pidsPath = cgroups[0]
      ?.split("\n")
      .find((line) => /:pids:/.test(line))
      ?.split(":")[2] as string;
    expect(pidsPath).toMatch(/^\/skillgate\/sg-/);
    await p.close(true);
    expect(await stillRunning(held)).toEqual([]);
    expect(existsSync(join("/sys/fs/cgroup/pids", pidsPath))).toBe(false);
    expect(await survivors(bed.ws)).toEqual([]);
    expect(last.status).toBe("ok");
  });
});
