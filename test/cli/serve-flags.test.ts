// httpAuthFrom: the HTTP auth options of `serve` (token inline or from a file), refused without --http.
import { writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { httpAuthFrom } from "../../runtime/cli/serve-flags.js";
import { SkillgateError } from "../../runtime/errors.js";
import { tempRoot } from "../support/workspace.js";

const temp = tempRoot("skillgate-serve-flags-");
afterAll(() => temp.cleanup());

describe("httpAuthFrom", () => {
  it("gives nothing when no auth flag is set, with or without --http", () => {
    expect(httpAuthFrom({})).toEqual({ authToken: undefined, allowedOrigins: undefined });
    expect(httpAuthFrom({ http: ":0" })).toEqual({ authToken: undefined, allowedOrigins: undefined });
  });

  it("takes the inline token, or the token file's first line, and the allowed origins", () => {
    expect(httpAuthFrom({ http: ":0", authToken: "t".repeat(16), allowOrigin: ["http://a.test"] })).toEqual({
      authToken: "t".repeat(16),
      allowedOrigins: ["http://a.test"],
    });
    const file = temp.path("mcp.token");
    writeFileSync(file, "from-the-file-0123\nignored\n");
    expect(httpAuthFrom({ http: ":0", authTokenFile: file }).authToken).toBe("from-the-file-0123");
  });

  it.each([
    [{ authToken: "t".repeat(16) }],
    [{ authTokenFile: "/no/such/file" }],
    [{ allowOrigin: ["http://a.test"] }],
  ])("refuses %j without --http (before reading any file)", (flags) => {
    expect(() => httpAuthFrom(flags)).toThrow(
      new SkillgateError("USAGE", "--auth-token, --auth-token-file and --allow-origin apply to --http only."),
    );
  });

  it("a token file that cannot be read is a usage error naming it", () => {
    const missing = temp.path("none.token");
    expect(() => httpAuthFrom({ http: ":0", authTokenFile: missing })).toThrow(
      new SkillgateError(
        "USAGE",
        `--auth-token-file ${missing} cannot be read (ENOENT). Give a readable file holding the token on its first line.`,
      ),
    );
  });
});
