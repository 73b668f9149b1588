// The symlink-swap race: parallel ReadTextFile calls while a real process swaps a folder for a symlink to a host folder.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callTool } from "../../runtime/tools/registry.js";
import { call, connectStdio, type StdioConnection } from "../mcp/helpers.js";
import { type Fixture, makeFixture } from "./helpers.js";

const SECRET = "HOST-SECRET-7f3a";
// Swaps ws/dut/d (a real folder) for a symlink to the host folder and back, as fast as it can, until killed.
const SWAPPER = `
import os, sys
ws_d, host_d, counter = sys.argv[1], sys.argv[2], sys.argv[3]
n = 0
while True:
    os.rename(ws_d, ws_d + ".real")
    os.symlink(host_d, ws_d)
    os.unlink(ws_d)
    os.rename(ws_d + ".real", ws_d)
    n += 1
    if n % 200 == 0:
        # Written whole and renamed, so a reader never sees the truncated file (an empty count).
        with open(counter + ".tmp", "w") as f:
            f.write(str(n))
        os.replace(counter + ".tmp", counter)
`;

let fixture: Fixture | undefined;
let swapper: ChildProcess | undefined;
let connection: StdioConnection | undefined;

afterEach(async () => {
  swapper?.kill("SIGKILL");
  swapper = undefined;
  await connection?.close();
  connection = undefined;
  fixture?.cleanup();
  fixture = undefined;
});

function prepare(): { fixture: Fixture; counter: string } {
  const f = makeFixture();
  const host = join(f.dir, "host", "d");
  mkdirSync(host, { recursive: true });
  writeFileSync(join(host, "notes.txt"), `${SECRET}\n`);
  mkdirSync(join(f.ws, "dut", "d"), { recursive: true });
  writeFileSync(join(f.ws, "dut", "d", "notes.txt"), "inside\n");
  const counter = join(f.dir, "swaps");
  writeFileSync(counter, "0");
  return { fixture: f, counter };
}

function startSwapper(f: Fixture, counter: string): ChildProcess {
  return spawn("python3", ["-c", SWAPPER, join(f.ws, "dut", "d"), join(f.dir, "host", "d"), counter], {
    stdio: "ignore",
  });
}

async function waitForSwaps(counter: string, atLeast: number): Promise<number> {
  for (;;) {
    const n = Number(readFileSync(counter, "utf8") || "0");
    if (n >= atLeast) return n;
    await new Promise((r) => setImmediate(r));
  }
}

interface Tally {
  inside: number;
  refused: Record<string, number>;
  leaked: number;
}

function tally(results: { isError: boolean; code?: string; text: string }[], into: Tally): void {
  for (const r of results) {
    if (r.text.includes(SECRET)) into.leaked += 1;
    else if (!r.isError && r.text.includes("inside")) into.inside += 1;
    else if (r.isError) into.refused[r.code ?? "?"] = (into.refused[r.code ?? "?"] ?? 0) + 1;
  }
}

describe("ReadTextFile under a symlink/rename race", () => {
  it("in-process parallel calls: zero host bytes in 4000 reads while the folder flips (the naive check leaks)", async () => {
    const prepared = prepare();
    fixture = prepared.fixture;
    const session = await fixture.open();
    swapper = startSwapper(fixture, prepared.counter);
    await waitForSwaps(prepared.counter, 200);
    const t: Tally = { inside: 0, refused: {}, leaked: 0 };
    // Control: the check ReadTextFile used before (realpath, then open the path again) on the same race.
    let naiveLeaks = 0;
    const realRoot = realpathSync(fixture.ws);
    const naive = async (): Promise<void> => {
      try {
        const real = await realpath(join(fixture!.ws, "dut/d/notes.txt"));
        if (relative(realRoot, real).startsWith("..")) return;
        if ((await readFile(join(fixture!.ws, "dut/d/notes.txt"), "utf8")).includes(SECRET)) naiveLeaks += 1;
      } catch {
        // vanished mid-swap
      }
    };
    for (let round = 0; round < 200; round += 1) {
      const batch = Array.from({ length: 20 }, () =>
        callTool(session, "ReadTextFile", { path: "dut/d/notes.txt" }).then((r) => ({
          isError: r.isError,
          code: r.code,
          text: r.text,
        })),
      );
      const control = Array.from({ length: 20 }, naive);
      tally(await Promise.all(batch), t);
      await Promise.all(control);
    }
    const swaps = await waitForSwaps(prepared.counter, 0);
    expect(t.leaked).toBe(0);
    // The race was live: both states were observed, and the old check fell for it.
    expect(t.inside).toBeGreaterThan(0);
    expect(t.refused.PATH_OUTSIDE_WORKSPACE ?? 0).toBeGreaterThan(0);
    expect(naiveLeaks).toBeGreaterThan(0);
    expect(swaps).toBeGreaterThan(200);
    console.log(`race(in-process): ${JSON.stringify(t)} swaps=${swaps} naiveLeaks=${naiveLeaks}`);
  }, 120_000);

  it("through the MCP SDK client: zero host bytes in 1500 parallel reads", async () => {
    const prepared = prepare();
    fixture = prepared.fixture;
    connection = await connectStdio(["--workspace", fixture.ws, "--config", fixture.configFile], fixture.env);
    swapper = startSwapper(fixture, prepared.counter);
    await waitForSwaps(prepared.counter, 200);
    const t: Tally = { inside: 0, refused: {}, leaked: 0 };
    for (let round = 0; round < 75; round += 1) {
      const batch = Array.from({ length: 20 }, () =>
        call(connection!.client, "ReadTextFile", { path: "dut/d/notes.txt" }).then((r) => ({
          isError: r.isError === true,
          code: (r.structured as { code?: string } | undefined)?.code,
          text: r.text,
        })),
      );
      tally(await Promise.all(batch), t);
    }
    expect(t.leaked).toBe(0);
    expect(t.inside).toBeGreaterThan(0);
    expect(Object.values(t.refused).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    console.log(`race(mcp): ${JSON.stringify(t)}`);
  }, 180_000);
});
