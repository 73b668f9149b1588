// npm test's pretest on a machine without the tools, as a user who cannot install them: it stops at once with the command.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findExecutable } from "../../runtime/exec/runner.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { REPO_ROOT } from "../tools/helpers.js";

let temp: TempRoot | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

describe("scripts/test-tools.mjs (npm test's pretest)", () => {
  it("exits 1 naming the exact apt-get command when bubblewrap and the sandbox tools are missing (not root)", () => {
    temp = tempRoot("skillgate-pretest-");
    const dir = temp.dir;
    chmodSync(dir, 0o755);
    // A PATH with node and python3 only: none of the tools the tests need.
    const bin = join(dir, "bin");
    mkdirSync(join(dir, "scripts"), { recursive: true });
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, "node"));
    symlinkSync("/usr/bin/python3", join(bin, "python3"));
    const script = join(dir, "scripts", "test-tools.mjs");
    copyFileSync(join(REPO_ROOT, "scripts", "test-tools.mjs"), script);
    chmodSync(script, 0o644);
    // As root the script would install; run it as the unprivileged `nobody` then (as a normal user, as that user).
    const asUser =
      process.getuid?.() === 0
        ? [findExecutable("setpriv") ?? "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        : [];
    const argv = [...asUser, join(bin, "node"), script];
    const outcome = spawnSync(argv[0] as string, argv.slice(1), {
      encoding: "utf8",
      env: { PATH: bin, HOME: dir, LANG: "C.UTF-8" },
      timeout: 30_000,
    });
    expect(outcome.status).toBe(1);
    expect(outcome.stdout).toBe("");
    const packages = "bubblewrap util-linux gcc libc6-dev acl slirp4netns keyutils git";
    expect(outcome.stderr).toContain(
      "pretest: the tests need tools that are missing on this machine.\n" +
        `  ${packages.split(" ").join(", ")}: run  sudo apt-get update && sudo apt-get install -y ${packages}\n`,
    );
  });
});
