// runtime/exec/macos-profile.ts: the deny-by-default macOS sandbox-exec profile text (pure; not executed on Linux).
import { describe, expect, it } from "vitest";
import {
  MACOS_SYSTEM_READ_PATHS,
  macosSandboxProfile,
  sbplString,
} from "../../runtime/exec/macos-profile.js";

describe("macosSandboxProfile", () => {
  it("generates a deny-by-default profile with read, write and denied paths", () => {
    expect(
      macosSandboxProfile({
        readPaths: ["/Users/u/ws/.ucagent/skills/s"],
        writePaths: ["/Users/u/ws", '/tmp/we"ird\\dir'],
        deniedPaths: ["/Users/u/.ssh"],
        network: false,
      }),
    ).toBe(
      [
        "(version 1)",
        "(deny default)",
        "(allow process-fork)",
        "(allow process-exec)",
        "(allow signal (target same-sandbox))",
        "(allow sysctl-read)",
        '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo"))',
        "(allow file-read-metadata)",
        '(allow file-read* (subpath "/usr") (subpath "/bin") (subpath "/sbin") (subpath "/System") (subpath "/Library/Frameworks") (subpath "/Library/Apple") (subpath "/private/etc") (subpath "/private/var/db/timezone") (subpath "/opt/homebrew") (subpath "/usr/local") (subpath "/dev") (subpath "/Users/u/ws/.ucagent/skills/s"))',
        '(allow file-read* file-write* (subpath "/Users/u/ws") (subpath "/tmp/we\\"ird\\\\dir"))',
        '(allow file-write* (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr"))',
        '(deny file-read* file-write* (subpath "/Users/u/.ssh"))',
        "",
      ].join("\n"),
    );
  });

  it("allows the network only when declared", () => {
    const base = { readPaths: [], writePaths: [], deniedPaths: [] };
    expect(macosSandboxProfile({ ...base, network: false })).not.toContain("network");
    expect(macosSandboxProfile({ ...base, network: true })).toContain(
      "(allow network*)\n(allow system-socket)\n",
    );
  });
});

describe("sbplString", () => {
  it.each([
    ["/Users/u/ws", '"/Users/u/ws"'],
    ['/tmp/a"b', '"/tmp/a\\"b"'],
    ["/tmp/a\\b", '"/tmp/a\\\\b"'],
    ['/x\\")(allow default)("', '"/x\\\\\\")(allow default)(\\""'],
  ])("%s → %s", (value, literal) => {
    expect(sbplString(value)).toBe(literal);
  });

  it("escapes a path that tries to close its literal, so it cannot add an (allow default) rule", () => {
    const profile = macosSandboxProfile({
      readPaths: ['/Users/u/x") (allow default) ("'],
      writePaths: [],
      deniedPaths: [],
      network: false,
    });
    expect(profile).toContain('(subpath "/Users/u/x\\") (allow default) (\\"")');
  });

  it("always lets interpreters read the system folders, without writes or denials when none are given", () => {
    const profile = macosSandboxProfile({ readPaths: [], writePaths: [], deniedPaths: [], network: false });
    expect(profile).toContain(
      `(allow file-read* ${MACOS_SYSTEM_READ_PATHS.map((path) => `(subpath "${path}")`).join(" ")})`,
    );
    expect(profile).not.toContain("file-read* file-write* (subpath");
    expect(profile).not.toContain("(deny file-read*");
  });
});
