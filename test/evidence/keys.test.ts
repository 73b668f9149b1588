// Who may sign for a workspace (keys.ts): the local key holder, and checkIdentity's refusals of a moved, foreign-key or replayed ledger.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import {
  checkIdentity,
  evidenceLocations,
  type LedgerIdentity,
  type LedgerKeys,
  ledgerKeyFile,
  localKeys,
} from "../../runtime/evidence/index.js";
import { tempRoot } from "../support/workspace.js";

const root = tempRoot("skillgate-keys-");
afterAll(() => root.cleanup());

function holder(name: string, workspace = "/work/ws"): LedgerKeys {
  return localKeys(evidenceLocations(workspacePaths(workspace), root.path(name)));
}

async function claimOf(
  keys: LedgerKeys,
  workspace: string,
  initId: string,
  home?: string,
): Promise<LedgerIdentity> {
  const signer = await keys.signerFor(workspace, initId);
  return {
    workspace,
    initId,
    publicKey: signer.publicKey,
    fingerprint: signer.fingerprint,
    ...(home ? { home } : {}),
  };
}

describe("localKeys", () => {
  it("signs with one key per workspace and init, the same signer object each time; says where its secret is", async () => {
    const keys = holder("h1");
    const a = await keys.signerFor("/work/ws", "i1");
    expect(await keys.signerFor("/work/ws", "i1")).toBe(a);
    expect((await keys.signerFor("/work/ws", "i2")).publicKey).not.toBe(a.publicKey);
    expect((await holder("h1").signerFor("/work/ws", "i1")).publicKey).toBe(a.publicKey);
    expect(keys.where).toBe(`skillgate home ${root.path("h1")} (key ${root.path("h1", "ledger.key")})`);
    expect(keys.home).toBe(root.path("h1"));
  });

  it("a bad master key fails the signer, and once the key is fixed the same holder signs again", async () => {
    const keys = holder("h2");
    await keys.signerFor("/work/ws", "i1");
    const fresh = holder("h2");
    writeFileSync(ledgerKeyFile(root.path("h2")), "not a key");
    await expect(fresh.signerFor("/work/ws", "i1")).rejects.toMatchObject({ code: "LEDGER_TAMPERED" });
    writeFileSync(ledgerKeyFile(root.path("h2")), "");
    await expect(fresh.signerFor("/work/ws", "i1")).rejects.toMatchObject({ code: "LEDGER_TAMPERED" });
    writeFileSync(ledgerKeyFile(root.path("h2")), `${"ab".repeat(32)}\n`);
    expect((await fresh.signerFor("/work/ws", "i1")).publicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it("keeps the identity and the head mark beside each other in its home", async () => {
    const keys = holder("h3");
    expect(await keys.readIdentity()).toBeNull();
    expect(await keys.readHead()).toBeNull();
    await keys.writeHead({ version: 1, initId: "i1", seq: 3, hash: "h", updatedAt: "t" });
    expect(await keys.readHead()).toEqual({ version: 1, initId: "i1", seq: 3, hash: "h", updatedAt: "t" });
    expect(keys.headFile.startsWith(root.path("h3", "workspaces"))).toBe(true);
  });
});

describe("checkIdentity", () => {
  const ws = "/work/ws";

  it("a lost identity file is put back when the key proves the ledger is ours", async () => {
    const keys = holder("c1");
    const claimed = await claimOf(keys, ws, "init-a");
    const signer = await checkIdentity(claimed, ws, keys);
    expect(signer.publicKey).toBe(claimed.publicKey);
    expect(await keys.readIdentity()).toMatchObject({
      version: 1,
      workspace: ws,
      initId: "init-a",
      publicKey: claimed.publicKey,
    });
    // Now present and matching: accepted again without a write.
    expect((await checkIdentity(claimed, ws, keys)).publicKey).toBe(claimed.publicKey);
  });

  it("a ledger of another path is refused with --adopt as the fix, touching nothing", async () => {
    const keys = holder("c2");
    const claimed = await claimOf(keys, "/old/ws", "init-a", "/homes/old");
    await expect(checkIdentity(claimed, ws, keys)).rejects.toMatchObject({
      code: "LEDGER_KEY_MISMATCH",
      message: `The evidence ledger in ${ws} belongs to workspace /old/ws (created with SKILLGATE_HOME=/homes/old): the workspace was moved or copied. Nothing was changed. If this is the same work, run \`skillgate init ${ws} --adopt\` to re-sign it for this path (recorded in the ledger); otherwise move .ucagent/skillgate/ledger.jsonl and progress.json aside to start a new ledger.`,
      details: { expected_workspace: ws, ledger_workspace: "/old/ws", fix: `skillgate init ${ws} --adopt` },
    });
    expect(existsSync(evidenceLocations(workspacePaths(ws), root.path("c2")).identityFile)).toBe(false);
    // Adopting it is the point: the old path's key signs on, no identity check of this path.
    expect((await checkIdentity(claimed, ws, keys, { adopting: true })).publicKey).toBe(claimed.publicKey);
  });

  it("a ledger signed under another home is refused, naming both keys and the home to use", async () => {
    const mine = holder("c3");
    const theirs = holder("c3-other");
    const claimed = await claimOf(theirs, ws, "init-a", root.path("c3-other"));
    const derived = (await mine.signerFor(ws, "init-a")).fingerprint;
    await expect(checkIdentity(claimed, ws, mine)).rejects.toMatchObject({
      code: "LEDGER_KEY_MISMATCH",
      message: `The evidence ledger in ${ws} was signed by key ${claimed.fingerprint} (created with SKILLGATE_HOME=${root.path("c3-other")}), but ${mine.where} derives ${derived} for it: skillgate runs with another home or key than the one that created this workspace (HOME or SKILLGATE_HOME changed?). Nothing was changed or discarded. Set SKILLGATE_HOME to the home that created it (${root.path("c3-other")}) and retry.`,
    });
    expect(await mine.readIdentity()).toBeNull();
  });

  it("a ledger from an earlier init is LEDGER_REPLAY, and the current identity is kept", async () => {
    const keys = holder("c4");
    const current = await claimOf(keys, ws, "bbbbbbbb-current");
    await checkIdentity(current, ws, keys);
    const identityFile = evidenceLocations(workspacePaths(ws), root.path("c4")).identityFile;
    const before = readFileSync(identityFile, "utf8");
    const old = await claimOf(keys, ws, "aaaaaaaa-old");
    const createdAt = (await keys.readIdentity())!.createdAt;
    await expect(checkIdentity(old, ws, keys)).rejects.toMatchObject({
      code: "LEDGER_REPLAY",
      message: `The evidence ledger in ${ws} comes from an earlier init of this workspace (init aaaaaaaa), but the current init is bbbbbbbb (since ${createdAt}): ledger.jsonl/progress.json were restored from before a fresh init, so their progress is refused as a replay. Nothing was changed. Move .ucagent/skillgate/ledger.jsonl and progress.json aside; skillgate then starts the current init's ledger.`,
    });
    // Adopting this path's own old ledger is still a replay.
    await expect(checkIdentity(old, ws, keys, { adopting: true })).rejects.toMatchObject({
      code: "LEDGER_REPLAY",
    });
    expect(readFileSync(identityFile, "utf8")).toBe(before);
  });
});
