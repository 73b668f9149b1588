// runtime/exec/supervise/output.ts: both pipes of a real process in arrival order under one byte cap, and a wrapper's first stderr line removed.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { collectOutput, type Output } from "../../../runtime/exec/supervise/output.js";

/**
 * Runs `sh -c script` and collects its output; resolves once both pipes ended. Each chunk read is answered with
 * a line on the script's stdin, so a script that `read`s between writes gets its writes read one at a time.
 */
function collect(
  script: string,
  cap: number,
  preamble?: RegExp,
): Promise<{ output: Output; capped: number }> {
  const child = spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => undefined);
  const answer = (): void => {
    if (child.stdin.writable) child.stdin.write("\n");
  };
  child.stdout.on("data", answer);
  child.stderr.on("data", answer);
  let capped = 0;
  const read = collectOutput(
    child.stdout as Readable,
    child.stderr as Readable,
    cap,
    () => {
      capped++;
      child.kill("SIGKILL");
    },
    preamble,
  );
  return new Promise((resolve) => child.once("close", () => resolve({ output: read(), capped })));
}

describe("collectOutput", () => {
  it("keeps stdout and stderr apart and interleaved in arrival order", async () => {
    // Each write waits for the previous one to be read, so the order on the two pipes is known.
    const { output, capped } = await collect("echo one; read a; echo two >&2; read b; echo three", 1024);
    expect(output).toEqual({
      output: "one\ntwo\nthree\n",
      stdout: "one\nthree\n",
      stderr: "two\n",
      truncated: false,
    });
    expect(capped).toBe(0);
  });

  it("caps the combined output in bytes, keeps the head, and fires onCapped once", async () => {
    const { output, capped } = await collect("head -c 100000 /dev/zero | tr '\\0' a; echo never >&2", 1000);
    expect(output.output).toBe("a".repeat(1000));
    expect(output.stdout).toBe("a".repeat(1000));
    expect(output.truncated).toBe(true);
    expect(capped).toBe(1);
  });

  it("counts bytes, not characters, and decodes a cut or invalid sequence with replacement", async () => {
    const { output } = await collect("printf 'caf\\303\\251 \\377!'", 1024);
    expect(output.stdout).toBe("café \uFFFD!");
    const cut = await collect("printf '\\303\\251\\303\\251'", 3);
    expect(cut.output.stdout).toBe("é\uFFFD");
    expect(cut.output.truncated).toBe(true);
  });

  it("removes the wrapper's preamble only when it is the very first stderr bytes", async () => {
    const preamble = /^Joined session keyring: \d+\n/;
    const first = await collect("echo 'Joined session keyring: 42' >&2; echo real >&2", 1024, preamble);
    expect(first.output.stderr).toBe("real\n");
    const later = await collect("echo real >&2; echo 'Joined session keyring: 42' >&2", 1024, preamble);
    expect(later.output.stderr).toBe("real\nJoined session keyring: 42\n");
    const split = await collect(
      "printf 'Joined sess' >&2; read a; printf 'ion keyring: 7\\nafter\\n' >&2",
      1024,
      preamble,
    );
    expect(split.output.stderr).toBe("after\n");
    const noNewline = await collect("printf 'short' >&2", 1024, preamble);
    expect(noNewline.output.stderr).toBe("short");
  });
});
