// runtime/exec/supervise/supervise.ts: real processes watched under every limit (wall clock, output, memory, workspace budget) and killed whole.

import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { budgetWatch } from "../../../runtime/exec/prepare/workspace-budget.js";
import { type SuperviseInput, supervise } from "../../../runtime/exec/supervise/supervise.js";
import { survivors } from "../../support/host-probes.js";
import { tempRoot } from "../../support/workspace.js";
import { superviseInput, superviseLimits } from "./helpers.js";

const temp = tempRoot("skillgate-supervise-", { realpath: true });
afterAll(() => temp.cleanup());

const LIMITS = superviseLimits(10_000);
const PYTHON = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], {
  encoding: "utf8",
}).trim();

function input(argv: string[], overrides: Partial<SuperviseInput> = {}, marker = "none"): SuperviseInput {
  return superviseInput(argv, temp.dir, LIMITS, {
    env: { PATH: "/usr/bin:/bin", SG_MARK: marker },
    ...overrides,
  });
}

describe("supervise", () => {
  it("reports the exit, the output and the duration of a run that ends by itself", async () => {
    const run = await supervise(input(["sh", "-c", "echo out; echo err >&2; exit 3"]));
    expect(run).toMatchObject({
      exit: { code: 3, signal: null },
      limit: null,
      output: "out\nerr\n",
      stdout: "out\n",
      stderr: "err\n",
      truncated: false,
      oomKilled: false,
      warnings: [],
    });
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.setupError).toBeUndefined();
  });

  it("kills the whole tree at the time limit", async () => {
    const marker = `sg-supervise-${randomUUID()}`;
    const run = await supervise(
      input(["sh", "-c", "sleep 30 & sleep 30"], { limits: { ...LIMITS, timeoutMs: 300 } }, marker),
    );
    expect([run.limit, run.exit.signal]).toEqual(["timeout", "SIGKILL"]);
    expect(await survivors(marker)).toEqual([]);
  });

  it("kills a run at the output cap, keeping the head", async () => {
    const run = await supervise(
      input(["sh", "-c", "yes | head -c 10000000"], { limits: { ...LIMITS, outputBytes: 4096 } }),
    );
    expect(run.limit).toBe("output_limit");
    expect(run.output).toBe("y\n".repeat(2048));
    expect(run.truncated).toBe(true);
  });

  it("kills a run whose tree goes over the memory limit, with the peak it reached", async () => {
    const run = await supervise(
      input([PYTHON, "-c", "import time\nb = bytearray(400 * 1024 * 1024)\ntime.sleep(30)"], {
        limits: { ...LIMITS, memoryBytes: 64 * 1024 * 1024 },
      }),
    );
    expect(run.limit).toBe("memory_limit");
    expect(run.peakMemoryBytes).toBeGreaterThan(64 * 1024 * 1024);
  });

  it("kills a run that floods its writable area past the workspace budget", async () => {
    const area = temp.path("area");
    execFileSync("mkdir", ["-p", area]);
    const { watch } = await budgetWatch({
      writablePaths: [area],
      sensitivePaths: [],
      budget: { files: 50, bytes: 64 * 1024 * 1024 },
    });
    if (watch === null) throw new Error("the budget could not be enforced");
    const run = await supervise(
      input(["sh", "-c", `i=0; while true; do i=$((i+1)); : > ${area}/f$i; done`], { area: watch }),
    );
    expect(run.limit).toBe("workspace_limit");
    expect(run.workspaceExcess).toMatchObject({ kind: "files", limit: 50 });
    expect(run.workspaceExcess?.count).toBeGreaterThan(50);
  });

  it("kills what a finished run left behind", async () => {
    const marker = `sg-supervise-${randomUUID()}`;
    const run = await supervise(input(["sh", "-c", "sleep 30 & echo started"], {}, marker));
    expect([run.exit.code, run.stdout]).toEqual([0, "started\n"]);
    expect(await survivors(marker)).toEqual([]);
  });

  it("reports a failed hand-shake as a set-up error, the program killed", async () => {
    const run = await supervise(input(["sh", "-c", "exec 3>&-; sleep 30"], { handshake: true }));
    expect(run.setupError).toMatch(
      /^sandbox start-up hand-shake failed: bwrap (closed its info fd early: |exited before the sandbox started)$/,
    );
    expect(run.warnings).toEqual([run.setupError]);
    expect(run.exit.signal).toBe("SIGKILL");
  });

  it("removes the wrapper's preamble from stderr", async () => {
    const run = await supervise(
      input(["sh", "-c", "echo 'Joined session keyring: 9' >&2; echo real >&2"], {
        stderrPreamble: /^Joined session keyring: \d+\n/,
      }),
    );
    expect([run.stderr, run.output]).toEqual(["real\n", "real\n"]);
  });

  it("returns the spawn error of a program that cannot start", async () => {
    const run = await supervise(input(["/nonexistent/runner", "x"]));
    expect(run.exit.error?.code).toBe("ENOENT");
    expect(run.limit).toBeNull();
  });
});
