// The ACL grant cache through RunSkillScript (root): unchanged entries get no setfacl, a changed ACL is granted again, a foreign cache file is ignored.
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OWN_RECORD_TTL_MS } from "../../runtime/exec/grant-cache.js";
import { DEFAULT_SANDBOX_UID } from "../../runtime/exec/identity.js";
import { type Bed, makeBed, record } from "../adversarial/tool-bed.js";
import { BUILT_MAIN, ensureBuilt } from "../bench/built.js";
import { type IsolatedHome, isolateHome } from "../support/workspace.js";

const WRITE = `import sys, os
path = os.path.join(os.environ["OUT"], sys.argv[1])
open(path, "w").write("written")
print(path)
`;
const READ = `print("read only")
`;

type Records = Record<string, [string, string[]]>;

let bed: Bed;
let isolated: IsolatedHome;
const ctime = (path: string): bigint => lstatSync(path, { bigint: true }).ctimeNs;
const run = (script: string, args = "") => bed.run("grants", script, args);

/** The one cache file of the bed's workspace under the isolated SKILLGATE_HOME. */
function cacheFile(home = isolated.home): string {
  const dir = join(home, "cache", "acl-grants");
  const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
  expect(files, `cache files in ${dir}`).toHaveLength(1);
  return join(dir, files[0] as string);
}

/** Rewrites the cache so every path it lists carries its present state: a record that matches, right or wrong. */
function forgeMatchingCache(file: string, mode: number): void {
  const data = JSON.parse(readFileSync(file, "utf8")) as { records: Record<string, [string, string[]]> };
  for (const [path, [, specs]] of Object.entries(data.records)) {
    if (path.startsWith("\u0000")) continue; // the temp parent's record is kept by identity, not by state
    const info = lstatSync(path, { bigint: true });
    data.records[path] = [`${info.dev}:${info.ino}:${info.ctimeNs}`, specs];
  }
  writeFileSync(file, JSON.stringify(data));
  chmodSync(file, mode);
}

beforeAll(async () => {
  expect(
    process.getuid?.(),
    "ACL grants are made only when root drops to the sandbox uid; run this test as root",
  ).toBe(0);
  bed = await makeBed({ skills: [{ name: "grants", scripts: { "write.py": WRITE, "read.py": READ } }] });
  // Script runs read the cache's location from this process's SKILLGATE_HOME.
  isolated = isolateHome(bed.dir, { setProcess: true });
  mkdirSync(join(bed.ws, "out"), { recursive: true });
});
afterAll(() => {
  isolated?.restore();
  bed?.cleanup();
});

describe.sequential("ACL grant cache", () => {
  it("a run after an unchanged one makes no grant (no ACL change on any entry)", async () => {
    expect(record(await run("write.py", "first.txt")).status).toBe("ok");
    const out = join(bed.ws, "out");
    const file = join(out, "first.txt");
    // The write above changed out/ and the file: the next run grants them (once) and records them.
    expect(record(await run("read.py")).status).toBe("ok");
    const before = [ctime(bed.ws), ctime(out), ctime(file)];
    expect(record(await run("read.py")).status).toBe("ok");
    expect([ctime(bed.ws), ctime(out), ctime(file)]).toEqual(before);
    expect(lstatSync(cacheFile()).mode & 0o777).toBe(0o600);
  });

  it("an ACL removed after the grant is granted again, so the sandbox can still write", async () => {
    const out = join(bed.ws, "out");
    execFileSync("setfacl", ["-b", out]);
    const result = record(await run("write.py", "second.txt"));
    expect(result.status, result.output).toBe("ok");
    expect(readFileSync(join(out, "second.txt"), "utf8")).toBe("written");
  });

  it("a matching record in a cache file others may write is ignored: the grant is made", async () => {
    const out = join(bed.ws, "out");
    execFileSync("setfacl", ["-b", out]);
    forgeMatchingCache(cacheFile(), 0o666);
    const result = record(await run("write.py", "third.txt"));
    expect(result.status, result.output).toBe("ok");
    expect(readFileSync(join(out, "third.txt"), "utf8")).toBe("written");
  });

  it("control: the same matching record in our own file is trusted, so the removed ACL is not restored", async () => {
    // Shows the cache is what the cases above exercise; a record can only withhold a grant, never add one.
    const out = join(bed.ws, "out");
    execFileSync("setfacl", ["-b", out]);
    forgeMatchingCache(cacheFile(), 0o600);
    const result = record(await run("write.py", "fourth.txt"));
    expect(result.status).toBe("nonzero_exit");
    expect(result.output).toContain("PermissionError");
    // Any change of the entry (here a chmod) moves its ctime: the next run grants it again.
    chmodSync(out, 0o755);
    expect(record(await run("write.py", "fifth.txt")).status).toBe("ok");
  });
});

/** `skillgate call RunSkillScript` in a process of its own (no grant remembered in memory), temp folders under `tmp`, the bed's home. */
async function oneShot(script: string, tmp: string): Promise<string> {
  const commands = JSON.stringify({ commands: [["ext/grants", script, ""]] });
  const argv = [
    BUILT_MAIN,
    "call",
    "RunSkillScript",
    commands,
    "--workspace",
    bed.ws,
    "--config",
    bed.configFile,
  ];
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...argv, "--extra-skill-path", bed.extra],
      {
        env: { ...bed.env, TMPDIR: tmp },
      },
    );
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`skillgate call RunSkillScript ${script} failed: ${stdout}${stderr}`);
  }
}

describe.sequential("the run temp parent in one-shot calls", () => {
  const tmp = () => join(bed.dir, "tmp-base");
  const parent = () => join(tmp(), `skillgate-${process.getuid?.()}`);
  const searchAcl = () =>
    execFileSync("getfacl", ["--omit-header", "--absolute-names", parent()], { encoding: "utf8" })
      .split("\n")
      .filter((line) => line.startsWith(`user:${DEFAULT_SANDBOX_UID}:`));
  // The one-shot processes' cache, in the bed's own home (its ledger key lives there).
  const records = () =>
    (JSON.parse(readFileSync(cacheFile(bed.env.SKILLGATE_HOME), "utf8")) as { records: Records }).records;
  const key = () => `\u0000own\u0000${parent()}`;
  /** The parent's record, written only when setfacl was run for it (setfacl itself leaves an unchanged ACL's ctime). */
  const parentRecord = () => records()[key()];

  beforeAll(() => {
    ensureBuilt();
    mkdirSync(tmp(), { mode: 0o700 });
  }, 600_000);

  it("another workspace's temp folder made beside the run's (the parent's ctime moves) brings no setfacl on the parent", async () => {
    expect(await oneShot("read.py", tmp())).toContain("read only");
    expect(searchAcl()).toEqual([`user:${DEFAULT_SANDBOX_UID}:--x`]);
    const first = parentRecord();
    expect(first?.[1]).toEqual([`-m u:${DEFAULT_SANDBOX_UID}:x`]);
    const before = ctime(parent());
    mkdirSync(join(parent(), "0123456789abcdef"), { mode: 0o700 });
    expect(ctime(parent())).not.toBe(before);
    expect(await oneShot("read.py", tmp())).toContain("read only");
    expect(parentRecord()).toEqual(first);
  }, 120_000);

  it("a parent whose mask lost search (chmod 700) is granted again, and the run reaches its temp folder", async () => {
    const first = parentRecord();
    chmodSync(parent(), 0o700);
    expect(lstatSync(parent()).mode & 0o777).toBe(0o700);
    expect(await oneShot("read.py", tmp())).toContain("read only");
    expect(lstatSync(parent()).mode & 0o777).toBe(0o710);
    expect(searchAcl()).toEqual([`user:${DEFAULT_SANDBOX_UID}:--x`]);
    expect(parentRecord()).not.toEqual(first);
  }, 120_000);

  it("a record older than OWN_RECORD_TTL_MS is not trusted: setfacl runs again and renews it", async () => {
    const file = cacheFile(bed.env.SKILLGATE_HOME);
    const data = { format: 1, records: records() };
    const [state, specs] = data.records[key()] ?? ["", []];
    const old = Date.now() - OWN_RECORD_TTL_MS - 60_000;
    data.records[key()] = [`${state.split("@")[0]}@${old}`, specs];
    writeFileSync(file, JSON.stringify(data));
    expect(await oneShot("read.py", tmp())).toContain("read only");
    const [renewed] = parentRecord() ?? [""];
    expect(renewed.split("@")[0]).toBe(state.split("@")[0]);
    expect(Number(renewed.split("@")[1])).toBeGreaterThan(old + OWN_RECORD_TTL_MS);
  }, 120_000);
});
