// runtime/exec/prepared/python-hook.ts: a held sandbox starts Python ahead; through the tools the script sees what a fresh run sees and runs only when called.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PYTHON_HOOK_MOUNT } from "../../../runtime/exec/bwrap.js";
import { sharedPreparedPool } from "../../../runtime/exec/prepared/pool.js";
import {
  ensurePythonHook,
  GO_FD_VARIABLE,
  isPythonRunner,
  PYTHON_HOOK_DIR,
  PYTHON_HOOK_SOURCE,
  PYTHON_PROBE,
  pythonHookArgv,
} from "../../../runtime/exec/prepared/python-hook.js";
import type { CommandRecord } from "../../../runtime/tools/run-skill-script.js";
import { type Bed, record } from "../../adversarial/tool-bed.js";
import { stillRunning, survivors } from "../../support/host-probes.js";
import { type HeldBed, makeHeldBed } from "./held-bed.js";

const ROOT = process.getuid?.() === 0;
const SCRIPT = (bed: Bed) => join(bed.ws, ".ucagent", "skills", "ext", "pyprobe", "scripts", "probe.py");

describe("pythonHookArgv", () => {
  const hook = ["--ro-bind", "/h/hold-x", PYTHON_HOOK_MOUNT];
  const tail = ["--ro-bind", "/usr", "/usr", ...hook, "--", "/usr/bin/python3", "/s/a.py"];
  it.each([
    [
      "sets PYTHONPATH (the hook's mount) and the go descriptor first among the variables",
      ["prlimit", "--", "bwrap", "--clearenv", "--setenv", "PATH", "/usr/bin", ...tail],
      [
        "prlimit",
        "--",
        "bwrap",
        "--clearenv",
        "--setenv",
        "PYTHONPATH",
        PYTHON_HOOK_MOUNT,
        "--setenv",
        GO_FD_VARIABLE,
        "7",
        "--setenv",
        "PATH",
        "/usr/bin",
        ...tail,
      ],
    ],
    [
      "leaves a run with its own PYTHONPATH alone",
      ["bwrap", "--clearenv", "--setenv", "PYTHONPATH", "/x", ...tail],
      null,
    ],
    [
      "leaves a run that sets the go variable itself alone",
      ["bwrap", "--clearenv", "--setenv", "A", "1", "--setenv", GO_FD_VARIABLE, "3", ...tail],
      null,
    ],
    [
      "leaves an argv that does not bind the hook alone",
      ["bwrap", "--clearenv", "--ro-bind", "/usr", "/usr", "--", "/usr/bin/python3", "/s/a.py"],
      null,
    ],
    [
      "leaves an argv without --clearenv (no bwrap) alone",
      ["prlimit", "--", "/usr/bin/python3", "/s/a.py"],
      null,
    ],
  ])("%s", (_, argv, expected) => {
    expect(pythonHookArgv(argv, 7)).toEqual(expected);
  });

  it("stops looking for variables at the first option that is not --setenv (script args are not variables)", () => {
    const argv = ["bwrap", "--clearenv", "--setenv", "A", "1", ...tail, "--setenv", "PYTHONPATH", "/x"];
    expect(pythonHookArgv(argv, 5)?.slice(0, 8)).toEqual([
      "bwrap",
      "--clearenv",
      "--setenv",
      "PYTHONPATH",
      PYTHON_HOOK_MOUNT,
      "--setenv",
      GO_FD_VARIABLE,
      "5",
    ]);
  });
});

describe("isPythonRunner", () => {
  it.each([
    ["/usr/bin/python3", true],
    ["/root/.pyenv/versions/3.11.7/bin/python3.11", true],
    ["/usr/bin/python", true],
    ["/usr/bin/python3.12", true],
    ["/usr/bin/python2.7", false],
    ["/usr/bin/pypy3", false],
    ["/usr/bin/python3-config", false],
    ["/usr/bin/uv", false],
  ])("%s: %s", (runner, expected) => {
    expect(isPythonRunner(runner)).toBe(expected);
  });
});

describe("ensurePythonHook", () => {
  it("writes the hook and the empty probe once, read-only, in a folder named by the hook's content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-pyhook-"));
    try {
      const hook = await ensurePythonHook(dir);
      expect(hook).toBe(join(dir, PYTHON_HOOK_DIR));
      expect(PYTHON_HOOK_DIR).toMatch(/^hold-[0-9a-f]{16}$/);
      expect(readFileSync(join(hook, "sitecustomize.py"), "utf8")).toBe(PYTHON_HOOK_SOURCE);
      expect(readFileSync(join(hook, PYTHON_PROBE), "utf8")).toBe("");
      expect(statSync(join(hook, "sitecustomize.py")).mode & 0o777).toBe(0o444);
      const before = statSync(join(hook, "sitecustomize.py")).mtimeMs;
      expect(await ensurePythonHook(dir)).toBe(hook);
      expect(statSync(join(hook, "sitecustomize.py")).mtimeMs).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * What a Python script can see of its interpreter, process and sandbox (the run id masked). Everything, tracebacks and
 * warnings included, goes to stdout, so the output's order does not depend on which pipe the relay reads first.
 */
const PROBE_PY = `import json, os, sys, warnings
sys.stderr = sys.stdout
import __main__
run = os.environ.get("SKILLGATE_RUN_ID", "")
with open(os.path.join(os.environ["OUT"], "ran.txt"), "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
def fds():
    out = []
    for fd in sorted(os.listdir("/proc/self/fd"), key=int):
        try:
            out.append(os.readlink("/proc/self/fd/" + fd).split("[")[0])
        except OSError:
            out.append("gone")
    return out
state = {
    "argv": sys.argv, "orig_argv": sys.orig_argv, "path": sys.path, "modules": sorted(sys.modules),
    "main": sorted(vars(__main__)), "loader": [type(__loader__).__name__, __loader__.name, __loader__.path],
    "spec": repr(__spec__), "file": __file__, "cached": repr(__cached__), "importer_cache": sorted(sys.path_importer_cache),
    "env": sorted(os.environ.items()), "flags": repr(sys.flags), "caller": repr(sys._getframe().f_back),
    "excepthook": sys.excepthook is sys.__excepthook__, "sitecustomize": repr(sys.modules.get("sitecustomize")),
    "fds": fds(), "ids": [os.getuid(), os.getgid(), os.geteuid(), os.getgroups()], "cwd": os.getcwd(),
    "status": [l for l in open("/proc/self/status").read().split("\\n") if l.startswith(("Cap", "NoNewPrivs", "Seccomp"))],
    "limits": open("/proc/self/limits").read(),
    "mounts": [" ".join(l.split(" ")[3:]) for l in open("/proc/self/mountinfo").read().split("\\n")],
}
print(json.dumps(state, indent=0, sort_keys=True).replace(run, "<run>"))
warnings.warn("at the top", stacklevel=2)
if sys.argv[1:] == ["fail"]:
    raise ValueError("script failed on purpose")
if sys.argv[1:] == ["exit"]:
    sys.exit(7)
`;

const RAISE_LINE = PROBE_PY.split("\n").findIndex((line) => line.includes("raise ValueError")) + 1;

let bed: Bed;
let heldBed: HeldBed;
const pool = sharedPreparedPool();

async function probe(args: string): Promise<CommandRecord> {
  return record(await bed.run("pyprobe", "probe.py", args));
}

/** Held processes started with the hook: their start-up environment names the go descriptor. */
function hooked(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "latin1")
        .split("\0")
        .some((entry) => entry.startsWith(`${GO_FD_VARIABLE}=`));
    } catch {
      return false;
    }
  });
}

/** A process's argv and start-up environment, for the assertions' messages. */
function describePid(pid: number): string {
  const read = (file: string) => {
    try {
      return readFileSync(`/proc/${pid}/${file}`, "latin1").split("\0").join(" ");
    } catch (error) {
      return String(error);
    }
  };
  return `${pid}: ${read("cmdline")}\n  ${read("environ")}`;
}

/**
 * Three calls of `args`: fresh, fresh (the next sandbox is then held), served by the held one; `held` describes the
 * held processes that were started with the hook, read before the third call.
 */
async function freshAndHeld(
  args: string,
): Promise<{ fresh: CommandRecord; served: CommandRecord; held: string[] }> {
  const p = pool as NonNullable<typeof pool>;
  await p.close(true);
  const fresh = await probe(args);
  await probe(args);
  await p.settled();
  const held = hooked(p.idlePids()).map(describePid);
  const adopted = p.stats.adopted;
  const served = await probe(args);
  expect(p.stats.adopted).toBe(adopted + 1);
  return { fresh, served, held };
}

beforeAll(async () => {
  heldBed = await makeHeldBed([{ name: "pyprobe", scripts: { "probe.py": PROBE_PY } }]);
  bed = heldBed.bed;
});

afterAll(() => heldBed?.close());

describe("a held sandbox of a .py script (root: cgroup hand-shake)", () => {
  beforeAll(() => {
    if (!ROOT) throw new Error("needs root (prepared sandboxes use the pids cgroup hand-shake)");
  });

  it("starts Python ahead without running the script, and the script then sees exactly what a fresh run sees", async () => {
    heldBed.forgetRuns();
    const { fresh, served, held } = await freshAndHeld("a b");
    expect(fresh.status, fresh.output).toBe("ok");
    expect(held).toHaveLength(1);
    expect(held[0]).toContain(`${GO_FD_VARIABLE}=`);
    // Python was up and waiting in the held sandbox: the script ran for the three calls, never for the held one.
    expect(heldBed.ran()).toEqual(["a b", "a b", "a b"]);
    expect(served.status, served.output).toBe("ok");
    expect(served.output).toBe(fresh.output);
    expect(served.output).toContain('"caller": "None"');
    expect(served.output).not.toContain(GO_FD_VARIABLE);
    // The hook's folder is mounted in every Python run (mountinfo names it, as every bind), and nowhere else.
    expect(served.output).not.toContain(`"${PYTHON_HOOK_MOUNT}"`);
    expect(served.output.split(PYTHON_HOOK_DIR)).toHaveLength(2);
    expect(served.output).toMatch(new RegExp(`/${PYTHON_HOOK_DIR} ${PYTHON_HOOK_MOUNT} ro,`));
    expect(served.output).toContain(`"file": "${SCRIPT(bed)}"`);
    expect(served.output).toContain("Seccomp:\\t2");
    expect(await survivors(served.run_id as string)).toEqual([]);
  });

  it.each([
    ["fail", 1],
    ["exit", 7],
  ])(
    "a script that ends with %s ends as in a fresh run: status %i, the same traceback and warnings",
    async (args, code) => {
      const { fresh, served } = await freshAndHeld(args);
      expect(fresh.exit_code).toBe(code);
      expect(served.exit_code).toBe(code);
      expect(served.output).toBe(fresh.output);
      expect(served.output).toContain("\nsys:1: UserWarning: at the top\n");
      if (code === 1)
        expect(served.output).toContain(
          `Traceback (most recent call last):\n  File "${SCRIPT(bed)}", line ${RAISE_LINE}, in <module>\n    raise ValueError("script failed on purpose")\nValueError: script failed on purpose\n`,
        );
    },
  );

  it("an interpreter that skips sitecustomize (a wrapper passing -S) is held before Python starts and never runs a script early", async () => {
    const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
      encoding: "utf8",
    }).trim();
    // Outside the bed: the runner's prefix (the folder above bin/) is bound read-only, and the bed holds the workspace.
    const prefix = mkdtempSync(join(tmpdir(), "sg-wrapped-python-"));
    const bin = join(prefix, "bin");
    mkdirSync(bin);
    chmodSync(prefix, 0o755);
    writeFileSync(join(bin, "python3"), `#!/bin/sh\nexec ${python} -S "$@"\n`);
    chmodSync(join(bin, "python3"), 0o755);
    const savedPath = process.env.PATH;
    process.env.PATH = `${bin}:${savedPath}`;
    try {
      heldBed.forgetRuns();
      const { served, held } = await freshAndHeld("w");
      expect(served.argv[0]).toBe(join(bin, "python3"));
      expect(served.status, served.output).toBe("ok");
      expect(held).toEqual([]);
      expect(heldBed.ran()).toEqual(["w", "w", "w"]);
    } finally {
      process.env.PATH = savedPath;
      rmSync(prefix, { recursive: true, force: true });
    }
  });

  it("a held Python whose run never comes is killed unused when the pool closes, the script never run", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    heldBed.forgetRuns();
    await probe("end");
    await probe("end");
    await p.settled();
    const held = p.idlePids();
    expect(hooked(held)).toHaveLength(1);
    await p.close(true);
    expect(await stillRunning(held)).toEqual([]);
    expect(heldBed.ran()).toEqual(["end", "end"]);
  });
});
