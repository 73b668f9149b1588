// runtime/evidence/adopt.ts through EvidenceLedger.adopt: a moved or copied workspace re-signed and recorded, a forged countersignature refused, nothing to adopt refused.
import { cp, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";
import { appendEvidence, refusal, useLedgerFixture } from "./helpers.js";

const fx = useLedgerFixture();

describe("adopt", () => {
  it("a moved workspace: refused with --adopt as the fix; adopt re-signs, keeps the evidence and is recorded", async () => {
    await appendEvidence(fx.ledger());
    const moved = workspacePaths(join(fx.base, "moved"));
    await rename(fx.paths.root, moved.root);
    const ledger = new EvidenceLedger(moved, { home: fx.home });
    const got = await refusal(ledger.read());
    expect(got.code).toBe("LEDGER_KEY_MISMATCH");
    expect(got.message).toContain(`run \`skillgate init ${moved.root} --adopt\``);
    const adopted = await ledger.adopt();
    expect(adopted.from.workspace).toBe(fx.paths.root);
    expect(adopted.to.workspace).toBe(moved.root);
    const snap = await new EvidenceLedger(moved, { home: fx.home }).read();
    expect(snap.warnings).toEqual([]);
    expect(snap.state.skills["a/two"]?.use).toBe(true);
    const kinds = (await readFile(moved.ledger, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).kind);
    expect(kinds.at(-1)).toBe("adopt");
    await unlink(moved.progress);
    expect(await new EvidenceLedger(moved, { home: fx.home }).verifyAll()).toMatchObject({ ok: true });
  });

  it("a copied workspace is refused until adopted; the original keeps working", async () => {
    await appendEvidence(fx.ledger());
    const copy = workspacePaths(join(fx.base, "copy"));
    await cp(fx.paths.root, copy.root, { recursive: true });
    expect((await refusal(new EvidenceLedger(copy, { home: fx.home }).read())).code).toBe(
      "LEDGER_KEY_MISMATCH",
    );
    await new EvidenceLedger(copy, { home: fx.home }).adopt();
    expect((await new EvidenceLedger(copy, { home: fx.home }).read()).state.skills["a/one"]?.read).toBe(true);
    expect((await fx.ledger().read()).state.skills["a/one"]?.read).toBe(true);
  });

  it("an adopt record not countersigned by the new key is not accepted", async () => {
    await appendEvidence(fx.ledger());
    const moved = workspacePaths(join(fx.base, "moved"));
    await rename(fx.paths.root, moved.root);
    await new EvidenceLedger(moved, { home: fx.home }).adopt();
    const lines = (await readFile(moved.ledger, "utf8")).trim().split("\n");
    const adopt = JSON.parse(lines.at(-1)!);
    adopt.data.countersig = Buffer.alloc(64, 7).toString("base64");
    lines[lines.length - 1] = JSON.stringify(adopt);
    await writeFile(moved.ledger, `${lines.join("\n")}\n`);
    await unlink(moved.progress);
    expect((await refusal(new EvidenceLedger(moved, { home: fx.home }).read())).code).toBe(
      "LEDGER_KEY_MISMATCH",
    );
  });

  it("a workspace with no ledger yet has nothing to adopt: LEDGER_TAMPERED, and no ledger is written", async () => {
    expect(await refusal(fx.ledger().adopt())).toEqual({
      code: "LEDGER_TAMPERED",
      message: "there is no ledger to adopt",
    });
    expect(await readFile(fx.paths.ledger, "utf8").catch(() => "none")).toBe("none");
  });
});
