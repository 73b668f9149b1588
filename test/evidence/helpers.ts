// Temp workspace + key home for ledger tests, registered per test, and the reads of its chain position.
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { afterEach, beforeEach } from "vitest";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger, evidenceLocations, type LedgerRecord } from "../../runtime/evidence/index.js";
import { isolateHome, tempRoot } from "../support/workspace.js";

export interface LedgerFixture {
  base: string;
  home: string;
  paths: WorkspacePaths;
  /** A ledger that checkpoints after every append (unless `checkpointEvery` says otherwise). */
  ledger(checkpointEvery?: number): EvidenceLedger;
  cleanup(): Promise<void>;
}

export async function makeLedger(): Promise<LedgerFixture> {
  const temp = tempRoot("skillgate-ledger-");
  const base = temp.dir;
  const { home } = isolateHome(base, { create: false });
  const paths = workspacePaths(temp.path("ws"));
  await mkdir(paths.skillgateDir, { recursive: true });
  return {
    base,
    home,
    paths,
    ledger: (checkpointEvery = 1) => new EvidenceLedger(paths, { home, checkpointEvery }),
    cleanup: async () => temp.cleanup(),
  };
}

/**
 * A fresh fixture for every test of the calling file (made before each, removed after each). Register it before the
 * file's own `beforeEach` hooks that use it: vitest runs them in registration order.
 */
export function useLedgerFixture(): LedgerFixture {
  let current: LedgerFixture | undefined;
  beforeEach(async () => {
    current = await makeLedger();
  });
  afterEach(async () => {
    await current?.cleanup();
    current = undefined;
  });
  const now = (): LedgerFixture => {
    if (!current) throw new Error("the ledger fixture exists only inside a test (beforeEach made none)");
    return current;
  };
  return {
    get base() {
      return now().base;
    },
    get home() {
      return now().home;
    },
    get paths() {
      return now().paths;
    },
    ledger: (checkpointEvery) => now().ledger(checkpointEvery),
    cleanup: () => now().cleanup(),
  };
}

/** A run receipt record carrying `i`. */
export const runRecord = (i: number) => ({ stage: 0, kind: "run" as const, data: { i } });

/** The seq of the last record in the ledger file, of the head mark and of the checkpoint. */
export function chainPosition(fx: LedgerFixture) {
  return {
    lastSeq: (): number => {
      const lines = readFileSync(fx.paths.ledger, "utf8").split("\n").filter(Boolean);
      return (JSON.parse(lines.at(-1) as string) as LedgerRecord).seq;
    },
    markSeq: (): number =>
      (JSON.parse(readFileSync(evidenceLocations(fx.paths, fx.home).headFile, "utf8")) as { seq: number })
        .seq,
    checkpointSeq: (): number =>
      (JSON.parse(readFileSync(fx.paths.progress, "utf8")) as { ledger: { seq: number } }).ledger.seq,
  };
}

/** Five records of a stage: enter, a list, two reads of a/one and the use of a/two. */
export async function appendEvidence(ledger: EvidenceLedger): Promise<void> {
  await ledger.transact(() => ({
    records: [
      { stage: 0, kind: "stage_enter", data: { name: "review" } },
      { stage: 0, kind: "list", data: { skills: ["a/one", "a/two"] } },
      { stage: 0, kind: "read", data: { skill: "a/one", startLine: 1, endLine: 5, totalLines: 10 } },
      { stage: 0, kind: "read", data: { skill: "a/one", startLine: 6, endLine: 10, totalLines: 10 } },
      { stage: 0, kind: "use", data: { skills: ["a/two"] } },
    ],
    result: undefined,
  }));
}

/** The code and message a promise is rejected with; throws when it resolves. */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as { code: string; message: string };
    return { code: e.code, message: e.message };
  }
  throw new Error("expected a refusal");
}
