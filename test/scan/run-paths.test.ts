// runScanPaths: what level 3 scans for one run (the script, plus hooks.ts only when it is a regular file).
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runScanPaths } from "../../runtime/scan/index.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("sg-scan-paths-");
const root = temp.dir;
afterAll(() => temp.cleanup());

function skill(name: string, hooks?: (file: string) => void): { dir: string; script: string } {
  const dir = join(root, name);
  mkdirSync(join(dir, "scripts"), { recursive: true });
  const script = join(dir, "scripts", "x.sh");
  writeFileSync(script, "echo x\n");
  hooks?.(join(dir, "hooks.ts"));
  return { dir, script };
}

describe("runScanPaths", () => {
  it.each([
    ["a regular hooks.ts is scanned after the script", (f: string) => writeFileSync(f, "export {}\n"), true],
    ["no hooks.ts: the script alone", undefined, false],
    ["a hooks.ts symlink is not followed", (f: string) => symlinkSync("/etc/passwd", f), false],
    ["a hooks.ts FIFO is never opened", (f: string) => execFileSync("mkfifo", [f]), false],
    ["a hooks.ts folder is not a file", (f: string) => mkdirSync(f), false],
  ] as const)("%s", async (label, make, included) => {
    const { dir, script } = skill(label.replace(/\W+/g, "-"), make);
    expect(await runScanPaths(script, dir)).toEqual(included ? [script, join(dir, "hooks.ts")] : [script]);
  });
});
