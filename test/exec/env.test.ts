// runtime/exec/env.ts: the environment allow-list of script runs (which names may reach a script, and why not).
import { describe, expect, it } from "vitest";
import { envNameProblem, filterRunEnv, RESERVED_ENV_NAMES } from "../../runtime/exec/env.js";

describe("environment allow-list", () => {
  it.each([
    ["LD_PRELOAD", false],
    ["ld_library_path", false],
    ["DYLD_INSERT_LIBRARIES", false],
    ["NODE_OPTIONS", false],
    ["NODE_PATH", false],
    ["PYTHONSTARTUP", false],
    ["BASH_ENV", false],
    ["BASH_FUNC_x%%", false],
    ["http_proxy", false],
    ["ALL_PROXY", false],
    ["GIT_SSH_COMMAND", false],
    ["HOME", false],
    ["API_TOKEN", true],
    ["MY_VAR_2", true],
  ])("%s allowed: %s", (name, allowed) => {
    expect(envNameProblem(name) === null).toBe(allowed);
  });

  it("filterRunEnv keeps DUT/OUT/run id and the caller's own names, drops the rest", () => {
    expect(
      filterRunEnv(
        {
          DUT: "d",
          OUT: "o",
          SKILLGATE_RUN_ID: "r",
          UV_CACHE_DIR: "/c",
          OK: "1",
          LD_PRELOAD: "x",
          BAD: "a\0b",
        },
        new Set(["UV_CACHE_DIR"]),
      ),
    ).toEqual({
      env: { DUT: "d", OUT: "o", SKILLGATE_RUN_ID: "r", UV_CACHE_DIR: "/c", OK: "1" },
      dropped: ["BAD", "LD_PRELOAD"],
    });
  });
});

describe("envNameProblem's reasons", () => {
  it.each([
    ["1ABC", "is not a valid variable name"],
    ["A-B", "is not a valid variable name"],
    ["A B", "is not a valid variable name"],
    ["", "is not a valid variable name"],
    ["path", "is set by skillgate itself"],
    ["TMPDIR", "is set by skillgate itself"],
    ["SKILLGATE_RUN_ID", "is set by skillgate itself"],
    ["Ifs", "can change how interpreters or shells load code"],
    ["SSL_CERT_FILE", "can change how interpreters or shells load code"],
    ["PYTHONPATH", "belongs to a family that loads code, reroutes traffic or controls skillgate"],
    ["skillgate_home", "belongs to a family that loads code, reroutes traffic or controls skillgate"],
    ["GIT_DIR", "belongs to a family that loads code, reroutes traffic or controls skillgate"],
    ["no_proxy", "reroutes network traffic"],
    ["_PRIVATE", null],
  ])("%j: %s", (name, problem) => {
    expect(envNameProblem(name)).toBe(problem);
  });

  it("reserves exactly the names skillgate sets for every run", () => {
    expect([...RESERVED_ENV_NAMES].sort()).toEqual([
      "DUT",
      "HOME",
      "LANG",
      "LC_ALL",
      "OUT",
      "PATH",
      "SKILLGATE_RUN_ID",
      "TMPDIR",
    ]);
  });

  it("never passes a caller's own name whose value holds a NUL byte, and sorts what it drops", () => {
    expect(filterRunEnv({ Z_BAD: "\0", OWN: "x\0y", A_PROXY: "p", DUT: "d\0" }, new Set(["OWN"]))).toEqual({
      env: {},
      dropped: ["A_PROXY", "DUT", "OWN", "Z_BAD"],
    });
  });
});
