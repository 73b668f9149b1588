// Temp workspace + key home for ledger tests.
import { mkdir } from "node:fs/promises";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";
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
