// The ACL grant cache through RunSkillScript (root): unchanged entries get no setfacl, a changed ACL is granted again, a foreign cache file is ignored.
import { execFileSync } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bed, makeBed, record } from "../adversarial/tool-bed.js";
import { type IsolatedHome, isolateHome } from "../support/workspace.js";

const WRITE = `import sys, os
path = os.path.join(os.environ["OUT"], sys.argv[1])
open(path, "w").write("written")
print(path)
`;
const READ = `print("read only")
`;

let bed: Bed;
let isolated: IsolatedHome;
const ctime = (path: string): bigint => lstatSync(path, { bigint: true }).ctimeNs;
const run = (script: string, args = "") => bed.run("grants", script, args);

/** The one cache file of the bed's workspace under the isolated SKILLGATE_HOME. */
function cacheFile(): string {
  const dir = join(isolated.home, "cache", "acl-grants");
  const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
  expect(files, `cache files in ${dir}`).toHaveLength(1);
  return join(dir, files[0] as string);
}

/** Rewrites the cache so every path it lists carries its present state: a record that matches, right or wrong. */
function forgeMatchingCache(file: string, mode: number): void {
  const data = JSON.parse(readFileSync(file, "utf8")) as { records: Record<string, [string, string[]]> };
  for (const [path, [, specs]] of Object.entries(data.records)) {
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
