// Where evidence lives (locations.ts): the secret side under the home, keyed by the workspace path; the ledger side inside the workspace.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { evidenceLocations, identityFileFor } from "../../runtime/evidence/index.js";

describe("evidenceLocations", () => {
  it("puts the key, identity and head under the home and the ledger, progress and public key in the state folder", () => {
    const paths = workspacePaths("/work/ws");
    const id = createHash("sha256").update("/work/ws").digest("hex").slice(0, 32);
    expect(evidenceLocations(paths, "/homes/sg")).toEqual({
      home: "/homes/sg",
      masterKeyFile: "/homes/sg/ledger.key",
      identityFile: `/homes/sg/workspaces/${id}.json`,
      headFile: `/homes/sg/workspaces/${id}.head.json`,
      workspace: "/work/ws",
      stateDir: paths.skillgateDir,
      ledger: paths.ledger,
      progress: paths.progress,
      publicKeyFile: `${paths.skillgateDir}/ledger.pub`,
    });
    expect(paths.ledger.startsWith("/work/ws/")).toBe(true);
  });

  it("defaults the home to SKILLGATE_HOME", () => {
    const saved = process.env.SKILLGATE_HOME;
    process.env.SKILLGATE_HOME = "/homes/from-env";
    try {
      expect(evidenceLocations(workspacePaths("/w")).masterKeyFile).toBe("/homes/from-env/ledger.key");
    } finally {
      if (saved === undefined) delete process.env.SKILLGATE_HOME;
      else process.env.SKILLGATE_HOME = saved;
    }
  });

  it("gives each workspace path its own identity file (a moved or copied workspace is another one)", () => {
    const one = identityFileFor("/h", "/work/ws");
    expect(identityFileFor("/h", "/work/ws")).toBe(one);
    expect(identityFileFor("/h", "/work/ws2")).not.toBe(one);
    expect(identityFileFor("/h", "/work/ws/")).not.toBe(one);
    expect(one).toMatch(/^\/h\/workspaces\/[0-9a-f]{32}\.json$/);
  });
});
