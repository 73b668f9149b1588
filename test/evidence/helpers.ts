// Temp workspace + key home for ledger tests.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";

export interface LedgerFixture {
  base: string;
  home: string;
  paths: WorkspacePaths;
  /** A ledger that checkpoints after every append (unless `checkpointEvery` says otherwise). */
  ledger(checkpointEvery?: number): EvidenceLedger;
  cleanup(): Promise<void>;
}

export async function makeLedger(): Promise<LedgerFixture> {
  const base = await mkdtemp(join(tmpdir(), "skillgate-ledger-"));
  const home = join(base, "home");
  const paths = workspacePaths(join(base, "ws"));
  await mkdir(paths.skillgateDir, { recursive: true });
  return {
    base,
    home,
    paths,
    ledger: (checkpointEvery = 1) => new EvidenceLedger(paths, { home, checkpointEvery }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
