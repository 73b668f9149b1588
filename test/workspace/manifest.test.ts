// The init manifest reader (runtime/workspace/manifest.ts): what init wrote reads back; anything else is null (re-init).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { initWorkspace } from "../../runtime/workspace/index.js";
import { readManifest } from "../../runtime/workspace/manifest.js";
import { type TempRoot, tempRoot } from "../support/workspace.js";
import { configWith, FIXTURE_PACK } from "./helpers.js";

let temp: TempRoot;
afterEach(() => temp?.cleanup());

describe("readManifest", () => {
  it("reads the manifest a real init wrote, with a hash per copied file", async () => {
    temp = tempRoot("skillgate-manifest-");
    const workspace = temp.path("ws");
    await initWorkspace({ workspace, config: configWith({ pack_path: FIXTURE_PACK }) });
    const manifest = await readManifest(workspacePaths(workspace));
    expect(manifest?.schema_version).toBe(1);
    expect(manifest?.pack_path).toBe(FIXTURE_PACK);
    const entries = Object.values(manifest?.files ?? {});
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["missing", null],
    ["not JSON", "{"],
    ["another schema version", JSON.stringify({ schema_version: 2, files: {} })],
    ["files missing", JSON.stringify({ schema_version: 1 })],
    ["files null", JSON.stringify({ schema_version: 1, files: null })],
    ["JSON null", "null"],
  ])("%s is null", async (_name, content) => {
    temp = tempRoot("skillgate-manifest-");
    const paths = workspacePaths(temp.path("ws"));
    if (content !== null) {
      mkdirSync(dirname(paths.manifest), { recursive: true });
      writeFileSync(paths.manifest, content);
    }
    expect(await readManifest(paths)).toBeNull();
  });
});
