// The hostile workspace the safe-file tests share: links out to a host secret, a FIFO, /dev/zero; and how a refusal is read.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { SkillgateError } from "../../runtime/errors.js";
import { tempDir } from "./helpers.js";

export interface HostileTree {
  /** The workspace: dut/a.txt, dut/sub/b.txt, links out (out-link, out-dir), in-link, fifo and zero. */
  ws: string;
  /** Outside the workspace: host/secret.txt. */
  host: string;
  dir: string;
}

/** A fresh hostile tree for each test of the calling file (made in beforeEach, removed in afterEach). */
export function useHostileTree(): HostileTree {
  const tree: HostileTree = { ws: "", host: "", dir: "" };
  let made: ReturnType<typeof tempDir>;
  beforeEach(() => {
    made = tempDir("skillgate-safe-");
    tree.dir = made.dir;
    tree.ws = join(made.dir, "ws");
    tree.host = join(made.dir, "host");
    const dut = join(tree.ws, "dut");
    mkdirSync(join(dut, "sub"), { recursive: true });
    mkdirSync(tree.host);
    writeFileSync(join(tree.host, "secret.txt"), "HOST-SECRET\n");
    writeFileSync(join(dut, "a.txt"), "one\ntwo\n");
    writeFileSync(join(dut, "sub", "b.txt"), "b\n");
    symlinkSync(join(tree.host, "secret.txt"), join(dut, "out-link"));
    symlinkSync(tree.host, join(dut, "out-dir"));
    symlinkSync("a.txt", join(dut, "in-link"));
    execFileSync("mkfifo", [join(dut, "fifo")]);
    symlinkSync("/dev/zero", join(dut, "zero"));
  });
  afterEach(() => made.cleanup());
  return tree;
}

/** The SkillgateError a promise is refused with (its code, message and details); any other outcome fails. */
export async function refusalOf(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details: unknown }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SkillgateError)
      return { code: error.code, message: error.message, details: error.details };
    throw error;
  }
  throw new Error("expected a refusal");
}
