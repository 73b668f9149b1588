// A fresh workspace per test for the file-tool suites: out/ plus a small dut/ (src/calc.py, README.md).
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { OpenedSession } from "../../runtime/tools/session.js";
import { type Fixture, type FixtureOptions, makeFixture } from "./helpers.js";

export const CALC_PY = "def add(a, b):\n    return a - b\n\n# TODO: tests\n";
export const README_MD = "# Calc\nTODO: docs\n";

export const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");

export interface FileWorkspace {
  readonly fixture: Fixture;
  readonly session: OpenedSession;
  /** Absolute path of a file under out/. */
  out(name: string): string;
  /** Replaces this test's workspace with one made from `options` (e.g. skills disabled). */
  reopen(options: FixtureOptions): Promise<OpenedSession>;
}

/** Registers beforeEach/afterEach that build and remove the workspace; read its fields inside a test. */
export function useFileWorkspace(): FileWorkspace {
  let fixture: Fixture | undefined;
  let session: OpenedSession | undefined;
  const seed = async (options: FixtureOptions) => {
    fixture = makeFixture(options);
    session = await fixture.open();
    mkdirSync(join(fixture.ws, "out"), { recursive: true });
    mkdirSync(join(fixture.ws, "dut", "src"), { recursive: true });
    writeFileSync(join(fixture.ws, "dut", "src", "calc.py"), CALC_PY);
    writeFileSync(join(fixture.ws, "dut", "README.md"), README_MD);
    return session;
  };
  beforeEach(async () => {
    await seed({});
  });
  afterEach(() => fixture?.cleanup());
  return {
    get fixture() {
      if (!fixture) throw new Error("the file workspace exists only inside a test");
      return fixture;
    },
    get session() {
      if (!session) throw new Error("the file workspace exists only inside a test");
      return session;
    },
    out: (name) => join(fixture?.ws ?? "", "out", name),
    reopen: async (options) => {
      fixture?.cleanup();
      return seed(options);
    },
  };
}
