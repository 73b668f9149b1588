// parseListenAddress: the --http HOST:PORT forms of `skillgate serve`, and the exact usage error for the rest.
import { describe, expect, it } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { parseListenAddress } from "../../runtime/mcp/listen-address.js";

describe("parseListenAddress", () => {
  it.each([
    ["127.0.0.1:8765", { host: "127.0.0.1", port: 8765 }],
    [":0", { host: "127.0.0.1", port: 0 }],
    ["9000", { host: "127.0.0.1", port: 9000 }],
    ["0.0.0.0:80", { host: "0.0.0.0", port: 80 }],
    ["[::1]:8080", { host: "::1", port: 8080 }],
    ["localhost:3000", { host: "localhost", port: 3000 }],
  ])("%s", (text, want) => {
    expect(parseListenAddress(text)).toEqual(want);
  });

  it.each(["", "host:", "127.0.0.1:70000", "a:b:c:1x"])("refuses %j", (text) => {
    expect(() => parseListenAddress(text)).toThrow(
      new SkillgateError(
        "USAGE",
        `--http '${text}' is not a listen address. Use HOST:PORT (e.g. 127.0.0.1:8765), or :0 for a free port on 127.0.0.1.`,
      ),
    );
  });
});
