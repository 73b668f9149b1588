// The evidence side of `skillgate init`: `--adopt` of a moved/copied ledger, and the fingerprint and recorded changes.
import { skillgateHome } from "../../config/index.js";
import { workspacePaths } from "../../contracts/index.js";
import { EvidenceLedger, type LedgerIdentity } from "../../evidence/index.js";
import type { OpenedSession } from "../../tools/index.js";

export interface Adopted {
  from: LedgerIdentity;
  to: LedgerIdentity;
}

/** `init --adopt`: re-sign the ledger for this path (only when it has one). */
export async function adoptIfAsked(workspace: string, adopt: boolean): Promise<Adopted | null> {
  if (!adopt) return null;
  const paths = workspacePaths(workspace);
  const { existsSync } = await import("node:fs");
  if (!existsSync(paths.ledger)) return null;
  const { from, to } = await new EvidenceLedger(paths, { home: skillgateHome() }).adopt();
  return { from, to };
}

export async function ledgerLinesAfterInit(
  session: OpenedSession,
  adopted: Adopted | null,
): Promise<{ lines: string[]; json: Record<string, unknown> }> {
  const engine = session.engine as OpenedSession["engine"] & { bindingNotes?: string[] };
  const health = (await engine.ledgerHealth?.()) ?? {};
  const lines: string[] = [];
  if (health.health === "refused") {
    const problem = health.problem as { code: string; message: string };
    lines.push(`Evidence ledger: REFUSED [${problem.code}]: ${problem.message}`);
  } else
    lines.push(`Evidence ledger key: ${health.fingerprint} (public key in .ucagent/skillgate/ledger.pub)`);
  if (adopted)
    lines.push(
      `Adopted the ledger of ${adopted.from.workspace} (key ${adopted.from.fingerprint}) for this path (key ${adopted.to.fingerprint}); recorded in the ledger.`,
    );
  for (const note of engine.bindingNotes ?? []) lines.push(`Ledger: ${note}`);
  engine.drainWarnings?.();
  return {
    lines,
    json: { ...health, adopted: adopted ?? null, recorded: engine.bindingNotes ?? [] },
  };
}
