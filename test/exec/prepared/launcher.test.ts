// runtime/exec/prepared/launcher.ts: a held sandbox of the .ts fast path boots node ahead; through the tools the helper sees a fresh run's sandbox and runs only when called.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureLauncher,
  LAUNCHER_NAME,
  LAUNCHER_SOURCE,
  launcherArgv,
} from "../../../runtime/exec/prepared/launcher.js";
import { sharedPreparedPool } from "../../../runtime/exec/prepared/pool.js";
import type { CommandRecord } from "../../../runtime/tools/run-skill-script.js";
import { type Bed, record } from "../../adversarial/tool-bed.js";
import { stillRunning, survivors } from "../../support/host-probes.js";
import { type HeldBed, makeHeldBed } from "./held-bed.js";

const ROOT = process.getuid?.() === 0;

describe("launcherArgv", () => {
  const command = ["/usr/bin/node", "/c/abc.run.mjs", "--src", "dut"];
  it.each([
    [
      "puts the launcher and its descriptor between node and the entry",
      ["prlimit", "--", "bwrap", "--ro-bind", "/usr", "/usr", "--", ...command],
      command,
      [
        "prlimit",
        "--",
        "bwrap",
        "--ro-bind",
        "/usr",
        "/usr",
        "--",
        "/usr/bin/node",
        "/c/L.mjs",
        "7",
        "/c/abc.run.mjs",
        "--src",
        "dut",
      ],
    ],
    [
      "refuses an argv that does not end with the command",
      ["bwrap", "--", "/usr/bin/node", "/c/other.mjs"],
      command,
      null,
    ],
    ["refuses a command without a script", ["bwrap", "--", "/usr/bin/node"], ["/usr/bin/node"], null],
    ["refuses a command longer than the argv", ["/usr/bin/node"], command, null],
  ])("%s", (_, argv, cmd, expected) => {
    expect(launcherArgv(argv, cmd, "/c/L.mjs", 7)).toEqual(expected);
  });
});

describe("ensureLauncher", () => {
  it("writes the launcher once, read-only, under a name derived from its content", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sg-launcher-"));
    try {
      const path = await ensureLauncher(dir);
      expect(path).toBe(join(dir, LAUNCHER_NAME));
      expect(LAUNCHER_NAME).toMatch(/^launch-[0-9a-f]{16}\.mjs$/);
      expect(readFileSync(path, "utf8")).toBe(LAUNCHER_SOURCE);
      expect(statSync(path).mode & 0o777).toBe(0o444);
      const before = statSync(path).mtimeMs;
      expect(await ensureLauncher(dir)).toBe(path);
      expect(statSync(path).mtimeMs).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** What a .ts helper can see of its process and sandbox; descriptors by what they point at (numbers are node's own). */
const PROBE_TS = `import { appendFileSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
const run: string = process.env.SKILLGATE_RUN_ID ?? "";
const out: string[] = [];
const add = (key: string, value: unknown): void => {
  out.push(key + "=" + JSON.stringify(value).split(run).join("<run>"));
};
appendFileSync(join(process.env.OUT as string, "ran.txt"), process.argv.slice(2).join(" ") + "\\n");
if (process.argv[2] === "fail") throw new Error("helper failed on purpose");
add("argv", process.argv.slice(1));
add("execArgv", process.execArgv);
add("ids", [process.getuid?.(), process.getgid?.(), process.geteuid?.(), process.getgroups?.()]);
add("pid", [process.pid, process.ppid]);
add("cwd", process.cwd());
add("url", import.meta.url);
const fds = readdirSync("/proc/self/fd").map((fd) => {
  try {
    return readlinkSync("/proc/self/fd/" + fd).replace(/\\[\\d+\\]/, "[]");
  } catch {
    return "gone";
  }
});
add("fds", fds.sort());
for (const line of readFileSync("/proc/self/status", "utf8").split("\\n"))
  if (/^(Cap|NoNewPrivs|Seccomp)/.test(line)) add("status", line.replace(/\\s+/g, " "));
add("limits", readFileSync("/proc/self/limits", "utf8").split("\\n").map((line) => line.replace(/\\s+/g, " ")));
add("mounts", readFileSync("/proc/self/mountinfo", "utf8").split("\\n").map((line) => line.split(" ").slice(3).join(" ")));
add("env", Object.entries(process.env).sort());
// The compiled-helper cache as the sandbox shows it: this helper's entry and body and the launcher, nothing else.
add("cache", readdirSync(dirname(process.argv[1] as string)).sort());
console.log(out.join("\\n"));
`;

const OTHER_TS = `console.log("other skill's secret: 42");\n`;

let bed: Bed;
let heldBed: HeldBed;
const pool = sharedPreparedPool();

async function probe(args: string): Promise<CommandRecord> {
  return record(await bed.run("tsprobe", "probe.ts", args));
}

/** Held pids running node with the launcher (bwrap's own two processes carry the same argv after theirs). */
function launchers(pids: number[]): number[] {
  return pids.filter(
    (pid) => cmdline(pid).startsWith(`${process.execPath} `) && cmdline(pid).includes(LAUNCHER_NAME),
  );
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").join(" ");
  } catch {
    return "";
  }
}

beforeAll(async () => {
  heldBed = await makeHeldBed([
    { name: "tsprobe", scripts: { "probe.ts": PROBE_TS }, runners: { "probe.ts": "tsx" } },
    // Another skill's helper, compiled into the same cache before the probe runs.
    { name: "tsother", scripts: { "other.ts": OTHER_TS }, runners: { "other.ts": "tsx" } },
  ]);
  bed = heldBed.bed;
});

afterAll(() => heldBed?.close());

describe("a held sandbox of the .ts fast path (root: cgroup hand-shake)", () => {
  beforeAll(() => {
    if (!ROOT) throw new Error("needs root (prepared sandboxes use the pids cgroup hand-shake)");
  });

  it("boots node ahead without running the helper, and the helper then sees exactly what a fresh run sees", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    heldBed.forgetRuns();
    const first = await probe("a b"); // fresh
    expect(first.status, first.output).toBe("ok");
    expect(first.argv[0]).toBe(process.execPath);
    await probe("a b"); // fresh; the next sandbox is made now, its launcher started
    await p.settled();
    const held = p.idlePids();
    expect(launchers(held).length, held.map(cmdline).join("\n")).toBe(1);
    // node is up and waiting in the held sandbox: the helper has run twice, for the two calls, never for the held one.
    expect(heldBed.ran()).toEqual(["a b", "a b"]);
    const adopted = p.stats.adopted;
    const third = await probe("a b");
    expect(p.stats.adopted).toBe(adopted + 1);
    expect(third.status, third.output).toBe("ok");
    expect(third.output).toBe(first.output);
    expect(third.output).toContain(
      `url="file://${join(bed.ws, ".ucagent", "skills", "ext", "tsprobe", "scripts", "probe.ts")}"`,
    );
    expect(third.output).toMatch(/^argv=\["[^"]+\.run\.mjs","a","b"\]$/m);
    expect(third.output).toContain("execArgv=[]");
    // stdout and stderr are the only sockets: the launcher's own was closed before the helper was imported.
    expect(third.output.match(/"socket:\[\]"/g)).toHaveLength(2);
    expect(third.output).toMatch(/status="Seccomp: 2"/);
    expect(heldBed.ran()).toEqual(["a b", "a b", "a b"]);
    expect(await survivors(third.run_id as string)).toEqual([]);
    // Only this helper's own cache files are bound, not the folder holding the other skill's compiled helper.
    const other = record(await bed.run("tsother", "other.ts"));
    expect(other.output).toContain("other skill's secret: 42");
    const cacheLine = /^cache=(.*)$/m.exec((await probe("a b")).output)?.[1];
    expect(JSON.parse(cacheLine ?? "null")).toEqual(
      [
        LAUNCHER_NAME,
        expect.stringMatching(/^[0-9a-f]{32}\.mjs$/),
        expect.stringMatching(/^[0-9a-f]{32}\.run\.mjs$/),
      ].sort(),
    );
    expect(readdirSync(join(bed.home, ".skillgate", "cache", "ts"))).toHaveLength(5);
  });

  it("a helper that throws fails as in a fresh run: exit code 1, the stack on the .ts source", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    const fresh = await probe("fail");
    await probe("fail");
    await p.settled();
    const adopted = p.stats.adopted;
    const served = await probe("fail");
    expect(p.stats.adopted).toBe(adopted + 1);
    for (const run of [fresh, served]) {
      expect(run.exit_code).toBe(1);
      expect(run.output).toContain("Error: helper failed on purpose");
      expect(run.output).toMatch(/probe\.ts:9:\d+/);
    }
  });

  it("a held launcher whose run never comes is killed unused when the pool closes", async () => {
    const p = pool as NonNullable<typeof pool>;
    await p.close(true);
    heldBed.forgetRuns();
    await probe("end");
    await probe("end");
    await p.settled();
    const held = p.idlePids();
    expect(launchers(held).length).toBe(1);
    await p.close(true);
    expect(await stillRunning(held)).toEqual([]);
    expect(heldBed.ran()).toEqual(["end", "end"]);
  });
});
