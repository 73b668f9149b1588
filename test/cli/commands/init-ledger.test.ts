// The evidence side of `skillgate init` as real processes: the key line, --adopt of a moved workspace, and its JSON.
import { renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adoptIfAsked } from "../../../runtime/cli/commands/init-ledger.js";
import { fixturesForFile, skillgate } from "../helpers.js";

const fixture = fixturesForFile();

const KEY = /ed25519:[0-9a-f]{32}/;

describe("adoptIfAsked", () => {
  it("does nothing unless asked, nor for a workspace without a ledger", async () => {
    const f = fixture();
    expect(await adoptIfAsked(f.ws, false)).toBeNull();
    expect(await adoptIfAsked(f.ws, true)).toBeNull();
  });
});

describe("skillgate init: the ledger lines", () => {
  it("prints the ledger key; after a move, --adopt re-signs for the new path and says from which key to which", async () => {
    const f = fixture();
    const first = await skillgate(["init", f.ws, "--config", f.configFile], f.env);
    expect(first.code).toBe(0);
    const keyLine = first.stdout.split("\n").find((line) => line.startsWith("Evidence ledger key: "));
    expect(keyLine).toMatch(
      new RegExp(
        `^Evidence ledger key: ${KEY.source} \\(public key in \\.ucagent/skillgate/ledger\\.pub\\)$`,
      ),
    );
    const oldKey = KEY.exec(keyLine ?? "")?.[0];

    const moved = join(f.dir, "moved");
    renameSync(f.ws, moved);
    const refused = await skillgate(["init", moved, "--config", f.configFile], f.env);
    expect(refused.stdout).toMatch(/\nEvidence ledger: REFUSED \[LEDGER_KEY_MISMATCH\]: /);

    const adopted = await skillgate(["init", moved, "--config", f.configFile, "--adopt", "--json"], f.env);
    expect(adopted.code).toBe(0);
    const ledger = JSON.parse(adopted.stdout).ledger;
    expect(ledger.adopted.from).toMatchObject({ workspace: f.ws, fingerprint: oldKey });
    expect(ledger.adopted.to.workspace).toBe(moved);
    expect(ledger.adopted.to.fingerprint).toMatch(KEY);
    expect(ledger.adopted.to.fingerprint).not.toBe(oldKey);

    const text = await skillgate(["init", moved, "--config", f.configFile], f.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`Evidence ledger key: ${ledger.adopted.to.fingerprint} (public key in`);
    const status = await skillgate(["status", "--workspace", moved, "--config", f.configFile], f.env);
    expect(status.code).toBe(0);
  });

  it("--adopt in text mode names both paths and keys, and that it is recorded in the ledger", async () => {
    const f = fixture();
    expect((await skillgate(["init", f.ws, "--config", f.configFile], f.env)).code).toBe(0);
    const moved = join(f.dir, "moved");
    renameSync(f.ws, moved);
    const adopted = await skillgate(["init", moved, "--config", f.configFile, "--adopt"], f.env);
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toMatch(
      new RegExp(
        `\\nAdopted the ledger of ${f.ws.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(key ${KEY.source}\\) for this path \\(key ${KEY.source}\\); recorded in the ledger\\.\\n`,
      ),
    );
  });
});
