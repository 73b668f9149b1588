// Real processes on one workspace: concurrent appends stay one consistent chain; kill -9 mid-call leaves loadable state.
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { execa } from "execa";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LedgerRecord } from "../../runtime/evidence/index.js";
import { makeWorkspace, type TestWorkspace } from "./helpers.js";

const CHILD = resolve(import.meta.dirname, "../fixtures/stage/child-engine.ts");
const STAGES = [
  {
    name: "review",
    output_files: ["out/report.md"],
    checker: [{ kind: "file_exists", args: { path: "out/report.md" } }],
    skill_list: ["review/text-method", "review/script-method"],
  },
];

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

async function records(): Promise<LedgerRecord[]> {
  return (await readFile(ws!.paths.ledger, "utf8"))
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as LedgerRecord);
}

describe("several processes on one workspace", () => {
  it("two processes appending concurrently produce one consistent chain", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
    const N = 25;
    const children = [1, 2].map(() =>
      execa("npx", ["tsx", CHILD, ws!.root, ws!.home, String(N)], { cwd: process.cwd() }),
    );
    const results = await Promise.all(children);
    for (const r of results) expect(r.stdout).toContain("done");
    const engine = await ws.engine();
    expect(await engine.ledger.verifyAll()).toEqual({
      ok: true,
      records: (await records()).length,
      quarantined: 0,
    });
    const all = await records();
    expect(all.map((r) => r.seq)).toEqual(all.map((_, i) => i + 1));
    const uses = all.filter((r) => r.kind === "use");
    expect(uses).toHaveLength(2 * N);
    const pids = new Set(uses.map((r) => (r.data.detail as { pid: number }).pid));
    expect(pids.size).toBe(2);
    expect(all.filter((r) => r.kind === "check")).toHaveLength(2 * Math.ceil(N / 5));
    expect(all.filter((r) => r.kind === "stage_enter")).toHaveLength(1);
    const view = await engine.current();
    expect(view?.evidence["review/script-method"]?.use).toBe(true);
    expect(engine.drainWarnings()).toEqual([]);
  });

  it("kill -9 during calls leaves a workspace that still loads", async () => {
    ws = await makeWorkspace({ stages: STAGES });
    await writeFile(join(ws.root, "out", "report.md"), "# Report\n");
    const child = execa("npx", ["tsx", CHILD, ws.root, ws.home, "forever"], {
      cwd: process.cwd(),
      reject: false,
    });
    // npx and tsx are wrappers: the script reports the pid of the process that really holds the lock and appends.
    const workerPid = await new Promise<number>((done) => {
      let seen = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /started (\d+)/.exec(seen);
        if (match) done(Number(match[1]));
      });
    });
    // Let it append a while (polled on the ledger, not slept), then kill it without warning, wherever it is in a call.
    await vi.waitFor(
      async () => expect((await records()).filter((r) => r.kind === "use").length).toBeGreaterThanOrEqual(10),
      { timeout: 60_000, interval: 25 },
    );
    process.kill(workerPid, "SIGKILL");
    await child;
    expect(() => process.kill(workerPid, 0)).toThrow();
    const engine = await ws.engine();
    const view = await engine.current();
    expect(view?.config.name).toBe("review");
    expect(view?.evidence["review/script-method"]?.use).toBe(true);
    const verified = await engine.ledger.verifyAll();
    expect(verified.ok).toBe(true);
    expect(verified.records).toBeGreaterThan(2);
    // A later call works normally (the stale lock of the killed process is taken over).
    expect((await engine.check()).isError).toBe(false);
  });
});
