// Where evidence lives: the secret (master key, per-workspace identities) under SKILLGATE_HOME, the ledger in the workspace.
import { createHash } from "node:crypto";
import { join } from "node:path";
import { skillgateHome } from "../config/index.js";
import type { WorkspacePaths } from "../contracts/index.js";

/**
 * Every evidence path in one place, so another principal (authority mode) can point the secret side and the state
 * folder elsewhere without touching the ledger code.
 */
export interface EvidenceLocations {
  /** Folder holding the secret side (default SKILLGATE_HOME or ~/.skillgate). */
  home: string;
  /** 32 random bytes (hex), 0600: the master secret every workspace signing key is derived from. */
  masterKeyFile: string;
  /** Per-workspace identity file (random init id), keyed by the workspace path. */
  identityFile: string;
  /** The last ledger head (seq + hash) of the current init, beside the identity: detects a restored older ledger. */
  headFile: string;
  /** Workspace root the identity belongs to. */
  workspace: string;
  /** skillgate's state folder (ledger, checkpoint, lock). */
  stateDir: string;
  ledger: string;
  progress: string;
  /** The workspace's public key and fingerprint, written at genesis (informational: verify trusts the ledger). */
  publicKeyFile: string;
}

export function identityFileFor(home: string, workspaceRoot: string): string {
  const id = createHash("sha256").update(workspaceRoot).digest("hex").slice(0, 32);
  return join(home, "workspaces", `${id}.json`);
}

export function evidenceLocations(
  paths: Pick<WorkspacePaths, "root" | "skillgateDir" | "ledger" | "progress">,
  home: string = skillgateHome(),
): EvidenceLocations {
  return {
    home,
    masterKeyFile: join(home, "ledger.key"),
    identityFile: identityFileFor(home, paths.root),
    headFile: identityFileFor(home, paths.root).replace(/\.json$/, ".head.json"),
    workspace: paths.root,
    stateDir: paths.skillgateDir,
    ledger: paths.ledger,
    progress: paths.progress,
    publicKeyFile: join(paths.skillgateDir, "ledger.pub"),
  };
}
