// runtime/exec/sensitive.ts: the host paths no script may see or change, masked by a real sandboxed run whose workspace is the home folder.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript } from "../../runtime/exec/index.js";
import { SENSITIVE_HOME_ENTRIES, sensitiveHomePaths } from "../../runtime/exec/sensitive.js";
import { type IsolatedHome, isolateHome } from "../support/workspace.js";
import { type Harness, makeHarness } from "./harness.js";

describe("sensitiveHomePaths", () => {
  it("joins every entry to the home folder given", () => {
    expect(sensitiveHomePaths("/home/u")).toEqual(SENSITIVE_HOME_ENTRIES.map((entry) => `/home/u/${entry}`));
  });

  it("covers credentials, shell start-up files, agent configs and skillgate's own home", () => {
    for (const entry of [
      ".ssh",
      ".aws",
      ".gnupg",
      ".kube",
      ".docker",
      ".netrc",
      ".git-credentials",
      ".npmrc",
      ".pypirc",
      ".bashrc",
      ".profile",
      ".zshrc",
      ".gitconfig",
      ".claude",
      ".claude.json",
      ".codex",
      ".cursor",
      ".gemini",
      ".skillgate",
    ]) {
      expect(SENSITIVE_HOME_ENTRIES, entry).toContain(entry);
    }
  });
});

const PROBE = `import os
home = os.environ["PROBE_HOME"]
for name in [".ssh/id_rsa", ".aws/credentials", ".bashrc", ".claude.json", "notes.txt"]:
    path = os.path.join(home, name)
    try:
        print(name, "read", repr(open(path).read()))
    except OSError as error:
        print(name, "unreadable", error.strerror)
for name in [".bashrc", ".ssh/authorized_keys", "notes.txt"]:
    try:
        with open(os.path.join(home, name), "a") as f:
            f.write("planted\\n")
        print(name, "written")
    except OSError as error:
        print(name, "not written", error.strerror)
print(".ssh lists", sorted(os.listdir(os.path.join(home, ".ssh"))))
`;

describe("a level-2 run whose workspace is the home folder", () => {
  let h: Harness;
  let isolated: IsolatedHome;
  let savedHome: string | undefined;
  beforeAll(() => {
    h = makeHarness("skillgate-sensitive-");
    isolated = isolateHome(h.root, { setProcess: true });
    savedHome = process.env.HOME;
    // The masks follow the home folder of the process that runs the sandbox: the workspace plays that home here.
    process.env.HOME = h.ws;
    mkdirSync(join(h.ws, ".ssh"));
    writeFileSync(join(h.ws, ".ssh", "id_rsa"), "PRIVATE KEY");
    mkdirSync(join(h.ws, ".aws"));
    writeFileSync(join(h.ws, ".aws", "credentials"), "aws_secret_access_key=x");
    writeFileSync(join(h.ws, ".bashrc"), "alias ls=ls\n");
    writeFileSync(join(h.ws, ".claude.json"), '{"token":"t"}');
    writeFileSync(join(h.ws, "notes.txt"), "ordinary\n");
  });
  afterAll(() => {
    process.env.HOME = savedHome;
    isolated.restore();
    h.cleanup();
  });

  it("cannot read nor change the sensitive paths, while ordinary files stay readable and writable", async () => {
    h.addScript("probe.py", PROBE);
    const req = await h.request("probe.py", {
      env: { DUT: join(h.ws, "dut"), OUT: h.out, PROBE_HOME: h.ws },
    });
    const result = await runScript({ ...req, env: { ...req.env } }, { prepared: null });
    expect(result.status, result.output).toBe("ok");
    expect(result.stdout.split("\n")).toEqual([
      ".ssh/id_rsa unreadable No such file or directory",
      ".aws/credentials unreadable No such file or directory",
      // A file is masked by /dev/null bound over it on a nodev mount: it cannot even be opened.
      ".bashrc unreadable Permission denied",
      ".claude.json unreadable Permission denied",
      "notes.txt read 'ordinary\\n'",
      ".bashrc not written Permission denied",
      ".ssh/authorized_keys not written Read-only file system",
      "notes.txt written",
      ".ssh lists []",
      "",
    ]);
    expect(readFileSync(join(h.ws, ".bashrc"), "utf8")).toBe("alias ls=ls\n");
    expect(readFileSync(join(h.ws, "notes.txt"), "utf8")).toBe("ordinary\nplanted\n");
  });
});
