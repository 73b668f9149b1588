// RegexRunner: matches in a worker thread; a catastrophic pattern is cut off by its timeout instead of hanging the server.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RegexRunner, RegexTimeout } from "../../runtime/tools/regex-worker.js";
import { callTool } from "../../runtime/tools/registry.js";
import { useFileWorkspace } from "./file-workspace.js";

const ws = useFileWorkspace();

describe("SearchText regex in a worker", () => {
  it("a catastrophic regex is cut off by its timeout instead of hanging the server", async () => {
    writeFileSync(ws.out("redos.txt"), `${"a".repeat(40)}!\n`);
    const result = await callTool(ws.session, "SearchText", {
      pattern: "^(a+)+$",
      directory: "out/redos.txt",
      use_regex: true,
      regex_timeout_ms: 20,
    });
    expect(result).toMatchObject({
      isError: true,
      code: "REGEX_TIMEOUT",
      text: "Regular expression timed out after 20 ms per line while searching out/redos.txt. Use a more specific pattern or plain-text search.",
    });
  });
});

describe("RegexRunner", () => {
  it("returns the indices of matching lines, with the flags given, over several calls on one worker", async () => {
    const runner = new RegexRunner("^to+do", "i");
    try {
      expect([...(await runner.match(["TODO", "x", "tooodo later", "do"], 5_000))]).toEqual([0, 2]);
      expect([...(await runner.match(["nothing"], 5_000))]).toEqual([]);
    } finally {
      runner.close();
    }
  });

  it("rejects with RegexTimeout past its budget, and a later call starts a fresh worker", async () => {
    const runner = new RegexRunner("^(a+)+$", "");
    try {
      await expect(runner.match([`${"a".repeat(40)}!`], 20)).rejects.toBeInstanceOf(RegexTimeout);
      expect([...(await runner.match(["aaa", "b"], 5_000))]).toEqual([0]);
    } finally {
      runner.close();
    }
  });

  it("rejects an invalid pattern with the engine's SyntaxError, not a timeout", async () => {
    const runner = new RegexRunner("(", "");
    try {
      await expect(runner.match(["x"], 5_000)).rejects.toThrow(/Invalid regular expression/);
    } finally {
      runner.close();
    }
  });
});
