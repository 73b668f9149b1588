// `skillgate serve` over stdio with the real MCP SDK client: the sandbox it prepared for the next run dies with the session.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PYTHON_HOOK_MOUNT } from "../../runtime/exec/bwrap.js";
import { PYTHON_PROBE } from "../../runtime/exec/prepared/python-hook.js";
import { type Bed, makeBed } from "../adversarial/tool-bed.js";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { connectStdio, type StdioConnection } from "../mcp/helpers.js";
import { processesWithMarker } from "../support/host-probes.js";

const ROOT = process.getuid?.() === 0;
const HELPER_PY = `import os\nprint("run", os.environ["SKILLGATE_RUN_ID"])\n`;

const PIDS = "/sys/fs/cgroup/pids/skillgate";

let bed: Bed;
let conn: StdioConnection | null = null;

/** bwrap processes of this workspace (the server's own argv names the workspace too, so it is left out). */
function sandboxes(): number[] {
  return processesWithMarker(bed.ws).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
      const state = readFileSync(`/proc/${pid}/status`, "utf8");
      return argv.some((arg) => arg.endsWith("/bwrap") || arg === "bwrap") && !/^State:\s+Z/m.test(state);
    } catch {
      return false;
    }
  });
}

/**
 * Held sandboxes that serve runs: without the one that first tries the Python hook on a new interpreter (its script is
 * the hook's empty probe; it is ended as soon as it answers).
 */
function runSandboxes(): number[] {
  return sandboxes().filter((pid) => {
    try {
      return !readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(
        `${PYTHON_HOOK_MOUNT}/${PYTHON_PROBE}\0`,
      );
    } catch {
      return false;
    }
  });
}

/** The run id a held sandbox was made for (bwrap's --setenv SKILLGATE_RUN_ID). */
function runIdOf(pid: number): string {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0");
  const id = argv[argv.indexOf("SKILLGATE_RUN_ID") + 1] ?? "";
  expect(id).toMatch(/^sg-/);
  return id;
}

/** What a cgroup of ours still holds: its members and each one's state and command (for a failure's message). */
function cgroupState(runId: string): string {
  const dir = join(PIDS, runId);
  if (!existsSync(dir)) return `${dir} is gone`;
  const members = readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
  const described = members.map((pid) => {
    try {
      const state = /^State:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      return `${pid} ${state} ${readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").slice(0, 3).join(" ")}`;
    } catch {
      return `${pid} (gone)`;
    }
  });
  return `${dir} holds ${members.length} process(es): ${described.join("; ") || "none"}`;
}

async function until<T>(
  what: string,
  probe: () => T,
  done: (value: T) => boolean,
  explain: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + 15_000;
  let value = probe();
  while (!done(value)) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)} ${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = probe();
  }
  return value;
}

beforeAll(async () => {
  bed = await makeBed({
    skills: [{ name: "hello", scripts: { "hello.py": HELPER_PY } }],
    exec: { timeout_seconds: 60 },
  });
});

afterAll(async () => {
  await conn?.close();
  bed?.cleanup();
});

async function call(): Promise<string> {
  const result = await (conn as StdioConnection).client.callTool({
    name: "RunSkillScript",
    arguments: { commands: [["ext/hello", "hello.py", ""]] },
  });
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
  expect(result.isError, text).toBeFalsy();
  return text;
}

/** The parent of a process (for a held bwrap: the server that spawned it). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describe("prepared sandboxes end with the session", () => {
  beforeAll(() => {
    // Prepared sandboxes need the cgroup hand-shake, which needs root: without it this suite proves nothing.
    if (!ROOT) throw new Error("needs root (prepared sandboxes use the pids cgroup hand-shake)");
  });
  it("serve prepares the next sandbox after a repeated run, and kills it (and its cgroup) when the client goes", async () => {
    conn = await connectStdio(
      ["--workspace", bed.ws, "--config", bed.configFile, "--extra-skill-path", bed.extra],
      bed.env,
    );
    await call();
    await call();
    const held = await until("a held sandbox", runSandboxes, (pids) => pids.length > 0);
    const runId = runIdOf(held[0] as number);
    expect(existsSync(join(PIDS, runId))).toBe(true);
    // The third call is served by it: its run id is the held sandbox's.
    expect(await call()).toContain(`run ${runId}`);
    const next = await until("the next held sandbox", runSandboxes, (pids) => pids.length > 0);
    const nextId = runIdOf(next[0] as number);
    expect(nextId).not.toBe(runId);
    expect(existsSync(join(PIDS, nextId))).toBe(true);
    const serverLog = (conn as StdioConnection).stderr;
    const closing = Date.now();
    await (conn as StdioConnection).close();
    const closedAfter = Date.now() - closing;
    conn = null;
    await until("no sandbox left", sandboxes, (pids) => pids.length === 0);
    await until(
      "its cgroup removed",
      () => existsSync(join(PIDS, nextId)),
      (present) => !present,
      () =>
        `(the client's close took ${closedAfter} ms) ${cgroupState(nextId)}; server stderr: ${serverLog().slice(-2000)}`,
    );
    expect(existsSync(join(PIDS, runId))).toBe(false);
  });

  it("a SIGTERM to serve (what an MCP client sends 2 s after closing stdin) ends it the same way", async () => {
    ensureBuilt();
    conn = await connectStdio(
      ["--workspace", bed.ws, "--config", bed.configFile, "--extra-skill-path", bed.extra],
      bed.env,
      [process.execPath, BUILT_MAIN],
    );
    await call();
    await call();
    const held = await until("a held sandbox", runSandboxes, (pids) => pids.length > 0);
    const runId = runIdOf(held[0] as number);
    const server = parentOf(held[0] as number);
    expect(readFileSync(`/proc/${server}/cmdline`, "latin1")).toContain("serve");
    process.kill(server, "SIGTERM");
    await until("no sandbox left", sandboxes, (pids) => pids.length === 0);
    await until(
      "its cgroup removed",
      () => existsSync(join(PIDS, runId)),
      (present) => !present,
    );
    await (conn as StdioConnection).close();
    conn = null;
  });
});
