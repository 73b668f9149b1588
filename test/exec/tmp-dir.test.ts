// A run's TMPDIR: private by default, a shared host folder when the request names one (kept temp files survive).
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { privateTmpDir } from "../../runtime/exec/identity.js";
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

describe("privateTmpDir", () => {
  const uid = process.getuid?.() ?? 0;
  it("is per user and per workspace, mode 0700 at both levels", async () => {
    const base = join(harness.root, "tmp-base");
    mkdirSync(base);
    const a = await privateTmpDir("/ws/a", base);
    const b = await privateTmpDir("/ws/b", base);
    expect(a).not.toBe(b);
    expect(a.startsWith(join(base, `skillgate-${uid}`))).toBe(true);
    for (const dir of [join(base, `skillgate-${uid}`), a]) {
      expect(lstatSync(dir).mode & 0o777).toBe(0o700);
      expect(lstatSync(dir).uid).toBe(uid);
    }
    expect(await privateTmpDir("/ws/a", base)).toBe(a);
  });

  it("refuses a planted symlink and tightens a folder others could enter", async () => {
    const base = join(harness.root, "tmp-planted");
    mkdirSync(join(base, "elsewhere"), { recursive: true });
    symlinkSync(join(base, "elsewhere"), join(base, `skillgate-${uid}`));
    await expect(privateTmpDir("/ws/a", base)).rejects.toThrow(
      `the run temp folder ${join(base, `skillgate-${uid}`)} is a symlink, expected a folder of uid ${uid} that others cannot enter (mode 700); fix: remove it (someone else may have planted it) and retry`,
    );
    rmSync(join(base, `skillgate-${uid}`));
    mkdirSync(join(base, `skillgate-${uid}`), { mode: 0o777 });
    chmodSync(join(base, `skillgate-${uid}`), 0o777);
    await privateTmpDir("/ws/a", base);
    expect(lstatSync(join(base, `skillgate-${uid}`)).mode & 0o007).toBe(0);
  });
});
