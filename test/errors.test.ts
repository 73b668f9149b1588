// runtime/errors.ts: the one error type (stable code, message, details), its JSON form, and codes that are only ever added.
import { describe, expect, it } from "vitest";
import { ERROR_CODES, isSkillgateError, SkillgateError } from "../runtime/errors.js";

/** Every code as of this file; callers and docs depend on them, so none may be renamed or removed. */
const PUBLISHED_CODES = [
  "USAGE",
  "CONFIG_INVALID",
  "CONFIG_UNREADABLE",
  "FLAG_CONFLICT",
  "PATH_NOT_FOUND",
  "WORKSPACE_NOT_INITIALISED",
  "SKILL_ROOT_MISSING",
  "SKILLS_DISABLED",
  "SKILL_NOT_FOUND",
  "SKILL_INVALID",
  "SCRIPT_NOT_FOUND",
  "SCRIPT_MODIFIED",
  "SCRIPT_PATH_INVALID",
  "RUNNER_CONFIG_INVALID",
  "RUNNER_NOT_FOUND",
  "INVALID_ARGS",
  "PATH_OUTSIDE_WORKSPACE",
  "FILE_NOT_FOUND",
  "FILE_TOO_LARGE",
  "NOT_TEXT",
  "SANDBOX_UNAVAILABLE",
  "SCAN_REFUSED",
  "SANDBOX_VIOLATION",
  "SCRIPT_COMPILE_FAILED",
  "STAGE_INVALID",
  "WORKFLOW_INVALID",
  "WORKFLOW_FINISHED",
  "SKILL_USAGE_INCOMPLETE",
  "SKILL_USAGE_NOT_VALIDATED",
  "SKILL_USAGE_REJECTED",
  "CHECK_FAILED",
  "LEDGER_TAMPERED",
  "LOCK_TIMEOUT",
  "INTERNAL",
  "SCRIPT_FAILED",
  "SCRIPT_SPAWN_FAILED",
  "SCRIPT_WORKSPACE_LIMIT",
  "NOT_REGULAR_FILE",
  "NOT_A_DIRECTORY",
  "WRITE_NOT_ALLOWED",
  "FILE_EXISTS",
  "FILE_IO_FAILED",
  "DISK_FULL",
  "PERMISSION_DENIED",
  "AUTHORITY_REFUSED",
  "AUTHORITY_STATE_FOREIGN",
  "AUTHORITY_UNREACHABLE",
  "SOCKET_UNAVAILABLE",
  "LEDGER_KEY_MISMATCH",
  "LEDGER_REPLAY",
  "LEDGER_ROLLBACK",
  "LEDGER_FORMAT_OLD",
  "WORKFLOW_CHANGED",
  "PACK_CHANGED",
  "VERIFY_FAILED",
  "FILE_CHANGED",
  "MATCH_NOT_FOUND",
  "MATCH_NOT_UNIQUE",
  "REGEX_TIMEOUT",
  "TOOL_DISABLED",
];

describe("ERROR_CODES", () => {
  it("still holds every published code (codes are added, never renamed)", () => {
    expect(PUBLISHED_CODES.filter((code) => !(ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it("holds each code once, in SCREAMING_SNAKE_CASE", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(ERROR_CODES.filter((code) => !/^[A-Z]+(?:_[A-Z]+)*$/.test(code))).toEqual([]);
  });
});

describe("SkillgateError", () => {
  it("is an Error named SkillgateError with its code, message, details and a stack", () => {
    const error = new SkillgateError("FILE_NOT_FOUND", "cannot read a.txt: missing; fix: create it", {
      path: "a.txt",
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("SkillgateError");
    expect(error.code).toBe("FILE_NOT_FOUND");
    expect(error.message).toBe("cannot read a.txt: missing; fix: create it");
    expect(error.details).toEqual({ path: "a.txt" });
    expect(String(error)).toBe("SkillgateError: cannot read a.txt: missing; fix: create it");
    expect(error.stack?.split("\n")[0]).toBe("SkillgateError: cannot read a.txt: missing; fix: create it");
  });

  it("defaults details to an empty object, one per error", () => {
    const a = new SkillgateError("USAGE", "a");
    const b = new SkillgateError("USAGE", "b");
    expect(a.details).toEqual({});
    expect(a.details).not.toBe(b.details);
  });

  it("serialises to code, message and details only (what --json and MCP results carry)", () => {
    const error = new SkillgateError("LOCK_TIMEOUT", "lock busy", { waitedMs: 5000 });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: "LOCK_TIMEOUT",
      message: "lock busy",
      details: { waitedMs: 5000 },
    });
    expect(JSON.parse(JSON.stringify({ error: new SkillgateError("USAGE", "x") }))).toEqual({
      error: { code: "USAGE", message: "x", details: {} },
    });
  });
});

describe("isSkillgateError", () => {
  it("accepts SkillgateErrors only, never a look-alike carrying a code", () => {
    const lookAlike = Object.assign(new Error("x"), { code: "USAGE", details: {} });
    expect(isSkillgateError(new SkillgateError("INTERNAL", "bug"))).toBe(true);
    expect(isSkillgateError(lookAlike)).toBe(false);
    expect(isSkillgateError({ name: "SkillgateError", code: "USAGE", message: "x" })).toBe(false);
    expect(isSkillgateError(new Error("x"))).toBe(false);
    expect(isSkillgateError(null)).toBe(false);
    expect(isSkillgateError("USAGE")).toBe(false);
  });
});
