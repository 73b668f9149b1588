// runtime/exec/prepare/scratch.ts: a run's HOME and TMPDIR (bwrap's private /tmp, a throwaway host folder, or the requested shared one).
import { existsSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "../../../runtime/exec/index.js";
import { prepareScratch } from "../../../runtime/exec/prepare/scratch.js";
import { isolateHome } from "../../support/workspace.js";
import { makeHarness } from "../harness.js";

const harness = makeHarness("skillgate-tmpdir-");
// Its runs' probe and ACL-grant caches go to a home of this suite, never the machine's ~/.skillgate.
const isolated = isolateHome(harness.root, { setProcess: true });
afterAll(() => {
  isolated.restore();
  harness.cleanup();
});

const KEEP_TEMP = `import os, tempfile
path = os.path.join(tempfile.gettempdir(), "kept.txt")
open(path, "w").write("kept")
print(path)
`;

describe.sequential("run TMPDIR", () => {
  it.each([1, 2] as const)(
    "level %i: a requested tmpDir is TMPDIR and its files outlive the run",
    async (level) => {
      harness.addScript("keep.py", KEEP_TEMP);
      const tmpDir = join(harness.root, `host-tmp-${level}`);
      const result = await runScript(await harness.request("keep.py", { tmpDir, sandboxLevel: level }));
      expect(result.status).toBe("ok");
      expect(result.stdout).toBe(`${join(tmpDir, "kept.txt")}\n`);
      expect(readFileSync(join(tmpDir, "kept.txt"), "utf8")).toBe("kept");
    },
  );

  it("level 2 without tmpDir: a private /tmp that vanishes with the sandbox", async () => {
    harness.addScript("keep.py", KEEP_TEMP);
    const result = await runScript(await harness.request("keep.py"));
    expect(result.stdout).toBe("/tmp/kept.txt\n");
    expect(existsSync("/tmp/kept.txt")).toBe(false);
  });
});

describe("prepareScratch", () => {
  it("inside bwrap: HOME is /tmp/home and TMPDIR the sandbox's private /tmp; nothing is made on the host", async () => {
    const req = await harness.request("keep.py");
    const scratch = await prepareScratch(req, true);
    expect({ ...scratch, remove: undefined }).toEqual({
      home: "/tmp/home",
      tmp: "/tmp",
      dir: null,
      writableExtras: [],
      remove: undefined,
    });
    await scratch.remove();
  });

  it("without bwrap: a fresh host folder holding home/ and tmp/, removed with its content afterwards", async () => {
    const req = await harness.request("keep.py", { sandboxLevel: 1 });
    const [a, b] = await Promise.all([prepareScratch(req, false), prepareScratch(req, false)]);
    expect(a.dir).not.toBe(b.dir);
    const dir = a.dir as string;
    expect(dirname(dir)).toBe(tmpdir());
    expect(dir.startsWith(join(tmpdir(), "skillgate-run-"))).toBe(true);
    expect([a.home, a.tmp]).toEqual([join(dir, "home"), join(dir, "tmp")]);
    expect(statSync(a.home).isDirectory() && statSync(a.tmp).isDirectory()).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await Promise.all([a.remove(), b.remove()]);
    expect([existsSync(dir), existsSync(b.dir as string)]).toEqual([false, false]);
  });

  it("makes the requested TMPDIR and the cache folders, and binds them writable after the caches", async () => {
    const tmpDir = join(harness.root, "shared", "tmp");
    const caches = [join(harness.root, "cache", "uv"), join(harness.root, "cache", "bun")];
    const req = await harness.request("keep.py", { tmpDir, persistentPaths: caches });
    const scratch = await prepareScratch(req, true);
    expect([scratch.home, scratch.tmp, scratch.writableExtras]).toEqual([
      "/tmp/home",
      tmpDir,
      [...caches, tmpDir],
    ]);
    for (const path of [tmpDir, ...caches]) expect(statSync(path).isDirectory(), path).toBe(true);
    await scratch.remove();
    // A shared TMPDIR is the caller's: kept temp files outlive the run.
    expect(existsSync(tmpDir)).toBe(true);
  });
});
