import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { SkillgateError } from "../../runtime/errors.js";
import { withWorkspaceLock } from "../../runtime/workspace/index.js";
import { tempDir } from "./helpers.js";

const CHILD = fileURLToPath(new URL("./lock-child.ts", import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

let tmp: ReturnType<typeof tempDir>;
let paths: WorkspacePaths;
const children: ChildProcess[] = [];
beforeEach(() => {
  tmp = tempDir();
  paths = workspacePaths(join(tmp.dir, "ws"));
  mkdirSync(paths.skillgateDir, { recursive: true });
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  tmp.cleanup();
});

function startChild(args: string[]): ChildProcess {
  // One process (node with the tsx loader), so SIGKILL hits the lock holder itself, not a wrapper.
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  return new Promise((done) => child.on("close", (code) => done({ code, stderr })));
}

function printedLocked(child: ChildProcess): Promise<void> {
  return new Promise((done, fail) => {
    child.stdout?.on("data", (chunk) => {
      if (String(chunk).includes("locked")) done();
    });
    child.on("close", (code) => fail(new Error(`holder exited early with ${code}`)));
  });
}

describe("withWorkspaceLock across processes", () => {
  it("two processes incrementing 50 times each end at 100", async () => {
    const a = startChild(["increment", paths.root, "50"]);
    const b = startChild(["increment", paths.root, "50"]);
    const [ra, rb] = await Promise.all([exited(a), exited(b)]);
    expect(ra).toEqual({ code: 0, stderr: "" });
    expect(rb).toEqual({ code: 0, stderr: "" });
    expect(readFileSync(join(paths.skillgateDir, "counter.txt"), "utf8")).toBe("100");
  });

  it("times out with LOCK_TIMEOUT naming the lock while a live process holds it", async () => {
    const holder = startChild(["hold", paths.root]);
    await printedLocked(holder);
    let caught: unknown;
    try {
      await withWorkspaceLock(paths, () => "never", { timeoutMs: 300, staleMs: 2_000 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkillgateError);
    expect((caught as SkillgateError).code).toBe("LOCK_TIMEOUT");
    expect((caught as SkillgateError).message).toBe(
      `could not take the workspace lock ${paths.lockFile} within 300 ms: another skillgate process (MCP server or CLI call) holds it; wait for it to finish and retry, or if no skillgate process is running, delete ${paths.lockFile}`,
    );
  });

  // proper-lockfile removes held locks at exit through the fs it was given; without a sync remove there, the lock
  // stayed until it went stale (10 s) and the next process waited that long.
  it("a holder that exits while holding the lock leaves no lock behind", async () => {
    const holder = startChild(["exit", paths.root]);
    expect(await exited(holder)).toEqual({ code: 0, stderr: "" });
    expect(existsSync(paths.lockFile)).toBe(false);
  });

  it("a holder stopped by SIGTERM while holding the lock leaves no lock behind", async () => {
    const holder = startChild(["hold", paths.root]);
    await printedLocked(holder);
    expect(existsSync(paths.lockFile)).toBe(true);
    const done = exited(holder);
    holder.kill("SIGTERM");
    await done;
    expect(existsSync(paths.lockFile)).toBe(false);
  });

  it("takes over the stale lock of a holder killed with SIGKILL", async () => {
    const holder = startChild(["hold", paths.root]);
    await printedLocked(holder);
    const gone = exited(holder);
    holder.kill("SIGKILL");
    await gone;
    const result = await withWorkspaceLock(paths, () => "taken over", { timeoutMs: 20_000, staleMs: 2_000 });
    expect(result).toBe("taken over");
  });
});

describe("withWorkspaceLock in one process", () => {
  it("serialises concurrent calls", async () => {
    const events: string[] = [];
    const task = (name: string) =>
      withWorkspaceLock(paths, async () => {
        events.push(`${name}:start`);
        await new Promise((done) => setTimeout(done, 20));
        events.push(`${name}:end`);
      });
    await Promise.all([task("a"), task("b"), task("c")]);
    expect(events).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });

  it("lets a nested call in the same flow through instead of deadlocking", async () => {
    const result = await withWorkspaceLock(paths, () =>
      withWorkspaceLock(paths, () => "inner", { timeoutMs: 200 }),
    );
    expect(result).toBe("inner");
  });

  it("a queued call in the same process times out with LOCK_TIMEOUT", async () => {
    let finishHolder!: () => void;
    let holderStarted!: () => void;
    const started = new Promise<void>((done) => {
      holderStarted = done;
    });
    const holding = withWorkspaceLock(paths, () => {
      holderStarted();
      return new Promise<string>((done) => {
        finishHolder = () => done("held");
      });
    });
    await started;
    await expect(withWorkspaceLock(paths, () => "queued", { timeoutMs: 100 })).rejects.toMatchObject({
      code: "LOCK_TIMEOUT",
    });
    finishHolder();
    expect(await holding).toBe("held");
    expect(await withWorkspaceLock(paths, () => "after", { timeoutMs: 2_000 })).toBe("after");
  });

  it("takes the lock again after its state folder was removed and leaves no lock folder behind", async () => {
    expect(await withWorkspaceLock(paths, () => "first")).toBe("first");
    rmSync(paths.skillgateDir, { recursive: true, force: true });
    expect(await withWorkspaceLock(paths, () => existsSync(paths.lockFile))).toBe(true);
    expect(existsSync(paths.lockFile)).toBe(false);
  });

  it("holds a lock file while fn runs and removes it after", async () => {
    const inside = await withWorkspaceLock(paths, () => statSync(paths.lockFile).isFile());
    expect({ inside, after: existsSync(paths.lockFile) }).toEqual({ inside: true, after: false });
  });

  it("a lock folder of an older version excludes this one while fresh, and is taken over once stale", async () => {
    mkdirSync(paths.lockFile);
    await expect(
      withWorkspaceLock(paths, () => "never", { timeoutMs: 300, staleMs: 2_000 }),
    ).rejects.toMatchObject({ code: "LOCK_TIMEOUT" });
    const old = new Date(Date.now() - 60_000);
    utimesSync(paths.lockFile, old, old);
    expect(await withWorkspaceLock(paths, () => "taken over", { timeoutMs: 5_000, staleMs: 2_000 })).toBe(
      "taken over",
    );
    expect(existsSync(paths.lockFile)).toBe(false);
  });

  it("releases the lock when fn throws", async () => {
    await expect(
      withWorkspaceLock(paths, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await withWorkspaceLock(paths, () => 1, { timeoutMs: 200 })).toBe(1);
  });
});
