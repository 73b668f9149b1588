// `skillgate export WS --out proof.json` and `skillgate verify WS|proof.json`: portable, offline-checkable evidence.
import { readFile, stat } from "node:fs/promises";
import type { Command } from "commander";
import { loadConfig } from "../../config/index.js";
import { workspacePaths } from "../../contracts/index.js";
import { SkillgateError } from "../../errors.js";
import {
  boundWorkflow,
  digestsOf,
  manifestMap,
  PROOF_FORMAT,
  type ProofBundle,
  parseLine,
  syncLedgerFile,
  verifyProof,
  verifyReportLines,
} from "../../evidence/index.js";
import { normaliseSkillId } from "../../skills/index.js";
import { readManifest, writeFileAtomic } from "../../workspace/index.js";
import { type CliIO, EXIT_FAILED, reportError } from "../io.js";

/** The workspace's ledger as a bundle, with the digests of the workflow and manifest in effect now. */
async function bundleOf(workspace: string, configFile?: string): Promise<ProofBundle> {
  const paths = workspacePaths(workspace);
  // A server may have answered a run before its receipt was synced: what is exported must be durable first.
  const text = await syncLedgerFile(paths.ledger)
    .then(() => readFile(paths.ledger, "utf8"))
    .catch((error: NodeJS.ErrnoException) => {
      throw new SkillgateError(
        error.code === "ENOENT" ? "WORKSPACE_NOT_INITIALISED" : "FILE_IO_FAILED",
        `cannot read the evidence ledger ${paths.ledger} (${error.code}); run \`skillgate init ${workspace}\` first`,
        { ledger: paths.ledger },
      );
    });
  const records = text.split("\n").filter((line) => line.trim().length > 0);
  const { config } = await loadConfig({ workspace: paths.root, configFile });
  const digests = digestsOf({
    workflow: boundWorkflow(config, normaliseSkillId),
    manifest: manifestMap(await readManifest(paths)),
    useSkill: config.skill.use_skill,
  });
  let publicKey = "";
  let fingerprint = "";
  for (const line of records) {
    const parsed = parseLine(line);
    if (parsed.ok && (parsed.record.kind === "genesis" || parsed.record.kind === "adopt")) {
      publicKey = String(parsed.record.data.publicKey ?? "");
      fingerprint = String(parsed.record.data.fingerprint ?? "");
    }
  }
  return {
    format: PROOF_FORMAT,
    workspace: paths.root,
    exported_at: new Date().toISOString(),
    public_key: publicKey,
    fingerprint,
    workflow_digest: digests.workflowDigest,
    manifest_digest: digests.manifestDigest,
    records,
  };
}

export function registerExport(program: Command, io: CliIO): void {
  program
    .command("export")
    .description(
      "Write a self-contained proof bundle of a workspace's evidence (records, signatures, public key, digests)",
    )
    .argument("<workspace>", "initialised workspace")
    .requiredOption("--out <file>", "where to write the bundle (JSON)")
    .option("--config <file>", "extra config layer (as for call/serve)")
    .option("--json", "print a JSON summary")
    .action(async (workspace: string, flags: { out: string; config?: string; json?: boolean }) => {
      try {
        const bundle = await bundleOf(workspace, flags.config);
        await writeFileAtomic(flags.out, `${JSON.stringify(bundle, null, 2)}\n`);
        const summary = {
          ok: true,
          out: flags.out,
          records: bundle.records.length,
          fingerprint: bundle.fingerprint,
        };
        io.out(
          flags.json
            ? JSON.stringify(summary, null, 2)
            : `Wrote ${flags.out}: ${bundle.records.length} records, key ${bundle.fingerprint}. Check it with: skillgate verify ${flags.out} --pubkey ${bundle.fingerprint}`,
        );
      } catch (error) {
        reportError(io, error, Boolean(flags.json));
      }
    });
}

export function registerVerify(program: Command, io: CliIO): void {
  program
    .command("verify")
    .description(
      "Check a workspace or an exported proof offline: chain, signatures, digests, and a verdict per stage",
    )
    .argument("<source>", "a workspace folder or a proof.json from `skillgate export`")
    .option("--pubkey <fingerprint>", "require this key fingerprint (ed25519:...)")
    .option("--config <file>", "extra config layer when verifying a workspace")
    .option("--json", "print the report as JSON")
    .action(async (source: string, flags: { pubkey?: string; config?: string; json?: boolean }) => {
      try {
        const info = await stat(source).catch(() => null);
        if (!info)
          throw new SkillgateError(
            "PATH_NOT_FOUND",
            `${source} does not exist; give a workspace folder or a proof.json`,
            { source },
          );
        let bundle: ProofBundle;
        if (info.isDirectory()) bundle = await bundleOf(source, flags.config);
        else {
          try {
            bundle = JSON.parse(await readFile(source, "utf8")) as ProofBundle;
          } catch (error) {
            throw new SkillgateError(
              "VERIFY_FAILED",
              `${source} is not a JSON proof bundle (${(error as Error).message})`,
              { source },
            );
          }
        }
        const report = verifyProof(bundle, { pubkey: flags.pubkey });
        if (flags.json) io.out(JSON.stringify(report, null, 2));
        else io.out(verifyReportLines(report, source).join("\n"));
        if (!report.ok) io.setExitCode(EXIT_FAILED);
      } catch (error) {
        reportError(io, error, Boolean(flags.json));
      }
    });
}
