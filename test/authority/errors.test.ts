// The errors of authority mode (authority/errors.ts): stable codes, the path, the cause and the fix in one message.
import { describe, expect, it } from "vitest";
import { socketError, unreachable } from "../../runtime/authority/errors.js";
import { SkillgateError } from "../../runtime/errors.js";

describe("authority errors", () => {
  it.each([
    [
      "a socket problem with its fix",
      socketError("/run/sg.sock", "it exists and is not a socket", "remove it"),
      "SOCKET_UNAVAILABLE",
      "cannot serve on unix socket /run/sg.sock: it exists and is not a socket; fix: remove it",
      { path: "/run/sg.sock" },
    ],
    [
      "a socket problem without a fix",
      socketError("/run/sg.sock", "cannot inspect it (EACCES)"),
      "SOCKET_UNAVAILABLE",
      "cannot serve on unix socket /run/sg.sock: cannot inspect it (EACCES)",
      { path: "/run/sg.sock" },
    ],
    [
      "nobody answering",
      unreachable(
        "/run/sg.sock",
        "nothing answers on unix socket /run/sg.sock (ECONNREFUSED)",
        "start the authority",
      ),
      "AUTHORITY_UNREACHABLE",
      "nothing answers on unix socket /run/sg.sock (ECONNREFUSED); fix: start the authority",
      { socket: "/run/sg.sock" },
    ],
  ])("%s", (_name, error, code, message, details) => {
    expect(error).toBeInstanceOf(SkillgateError);
    expect(error).toMatchObject({ code, message, details });
  });
});
