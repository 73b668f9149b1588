// runtime/exec/spawn/inherited-fds.ts: which descriptors an exec would keep (no close-on-exec), and the stdio entries covering them.
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type FdTable, inheritedDescriptors } from "../../../runtime/exec/spawn/inherited-fds.js";
import { handingDescriptor } from "../../support/process.js";
import { tempRoot } from "../../support/workspace.js";
import { REPO_ROOT } from "../../tools/helpers.js";

const temp = tempRoot("skillgate-inherited-fds-", { realpath: true });
afterAll(() => temp.cleanup());

const table = (entries: Record<string, string | null>, list?: () => string[]): FdTable => ({
  list: list ?? (() => Object.keys(entries)),
  info: (fd) => entries[String(fd)] ?? null,
});

describe("inheritedDescriptors", () => {
  it.each([
    ["stdio is never counted", { "0": "flags:\t02", "1": "flags:\t01", "2": "flags:\t01" }, []],
    [
      "close-on-exec descriptors are not kept",
      { "3": "pos:\t0\nflags:\t02000002\n", "4": "flags:\t02004000" },
      [],
    ],
    [
      "descriptors without close-on-exec are, sorted",
      { "251": "flags:\t02", "3": "flags:\t0100001", "9": "flags:\t00" },
      [3, 9, 251],
    ],
    ["a descriptor gone before its fdinfo was read is skipped", { "5": null, "6": "flags:\t01" }, [6]],
    [
      "names that are not numbers and fdinfo without flags are skipped",
      { x: "flags:\t0", "7": "pos:\t0" },
      [],
    ],
  ])("%s", (_name, entries, expected) => {
    expect(inheritedDescriptors(table(entries as Record<string, string | null>))).toEqual(expected);
  });

  it("an unreadable descriptor list gives none", () => {
    expect(
      inheritedDescriptors(
        table({}, () => {
          throw new Error("EACCES");
        }),
      ),
    ).toEqual([]);
  });

  it("finds the real descriptors a parent handed over, and not the process's own", async () => {
    const file = join(temp.dir, "handed.txt");
    const fd = openSync(file, "a");
    const script = `import { inheritedDescriptors } from ${JSON.stringify(join(REPO_ROOT, "runtime/exec/spawn/inherited-fds.ts"))};
import { openSync } from "node:fs";
openSync("/dev/null", "r");
process.stdout.write(JSON.stringify(inheritedDescriptors()));`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: REPO_ROOT,
      stdio: handingDescriptor(fd, [40, 45]),
    });
    child.stderr?.resume();
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    // 40 and 45 came from the parent; the /dev/null the child opened itself is close-on-exec. A descriptor the test
    // runner itself handed down without close-on-exec (a job runner's pipe) is listed too, so check inclusion.
    const kept = JSON.parse(out) as number[];
    expect(kept).toEqual(expect.arrayContaining([40, 45]));
    expect(kept.filter((n) => n < 40)).toEqual([]);
  });
});
