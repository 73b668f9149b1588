// A run's TMPDIR: private by default, a shared host folder when the request names one (kept temp files survive).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import { makeHarness } from "./harness.js";

const harness = makeHarness("skillgate-tmpdir-");
afterAll(() => harness.cleanup());

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
