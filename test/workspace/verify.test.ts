import { chmodSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type WorkspacePaths, workspacePaths } from "../../runtime/contracts/index.js";
import { initWorkspace, verifyCopiedFile } from "../../runtime/workspace/index.js";
import { configWith, FIXTURE_PACK, tempDir } from "./helpers.js";

let tmp: ReturnType<typeof tempDir>;
let paths: WorkspacePaths;
let script: string;
const rel = "review/alpha/scripts/check.py";
beforeEach(async () => {
  tmp = tempDir();
  paths = workspacePaths(join(tmp.dir, "ws"));
  await initWorkspace({ workspace: paths.root, config: configWith({ pack_path: FIXTURE_PACK }) });
  script = join(paths.skillsDir, rel);
});
afterEach(() => tmp.cleanup());

function edit(file: string, text: string): void {
  chmodSync(file, 0o644);
  writeFileSync(file, text);
}

describe("verifyCopiedFile", () => {
  it("accepts an unchanged copy, repeatedly", async () => {
    expect(await verifyCopiedFile(paths, script)).toEqual({ ok: true });
    expect(await verifyCopiedFile(paths, script)).toEqual({ ok: true });
  });

  it("refuses a copy edited after init and says how to re-init", async () => {
    expect(await verifyCopiedFile(paths, script)).toEqual({ ok: true });
    edit(script, "print('tampered')\n");
    const result = await verifyCopiedFile(paths, script);
    const manifest = JSON.parse(readFileSync(paths.manifest, "utf8"));
    const recorded = manifest.files[rel].sha256 as string;
    const { createHash } = await import("node:crypto");
    const current = createHash("sha256").update("print('tampered')\n").digest("hex");
    expect(result).toEqual({
      ok: false,
      message: `script ${rel} was modified after init (hash ${current.slice(0, 12)} != ${recorded.slice(0, 12)}); re-run: skillgate init ${paths.root}`,
    });
  });

  it("sees an edit that keeps the size and the modification time (cache keyed beyond mtime)", async () => {
    const original = readFileSync(script);
    const { mtime, atime } = await import("node:fs").then((fs) => fs.statSync(script));
    expect(await verifyCopiedFile(paths, script)).toEqual({ ok: true });
    const same = Buffer.from(original);
    same[0] = same[0] === 0x70 ? 0x71 : 0x70;
    edit(script, same.toString("latin1"));
    utimesSync(script, atime, mtime);
    expect((await verifyCopiedFile(paths, script)).ok).toBe(false);
  });

  it("accepts the file again after re-init restores it", async () => {
    edit(script, "print('tampered')\n");
    expect((await verifyCopiedFile(paths, script)).ok).toBe(false);
    await initWorkspace({ workspace: paths.root, config: configWith({ pack_path: FIXTURE_PACK }) });
    expect(await verifyCopiedFile(paths, script)).toEqual({ ok: true });
  });

  const refusals: [string, (p: WorkspacePaths) => string, (p: WorkspacePaths) => string][] = [
    [
      "a file outside the skill copy",
      (p) => join(p.root, "elsewhere.py"),
      (p) =>
        `${join(p.root, "elsewhere.py")} is not inside the skill copy ${p.skillsDir}; only files copied by init can be run; re-run: skillgate init ${p.root}`,
    ],
    [
      "a file added to the copy by hand",
      (p) => {
        chmodSync(join(p.skillsDir, "review/alpha/scripts"), 0o755);
        writeFileSync(join(p.skillsDir, "review/alpha/scripts/new.py"), "print(1)\n");
        return join(p.skillsDir, "review/alpha/scripts/new.py");
      },
      (p) =>
        `script review/alpha/scripts/new.py is not in the init manifest ${p.manifest}; re-run: skillgate init ${p.root}`,
    ],
    [
      "a copied file deleted",
      (p) => {
        chmodSync(join(p.skillsDir, "review/alpha/scripts"), 0o755);
        rmSync(join(p.skillsDir, rel));
        return join(p.skillsDir, rel);
      },
      (p) => `script ${rel} is missing from the skill copy ${p.skillsDir}; re-run: skillgate init ${p.root}`,
    ],
    [
      "no manifest",
      (p) => {
        rmSync(p.manifest);
        return join(p.skillsDir, rel);
      },
      (p) => `no valid init manifest at ${p.manifest}; re-run: skillgate init ${p.root}`,
    ],
    [
      "a corrupt manifest",
      (p) => {
        writeFileSync(p.manifest, "{ not json");
        return join(p.skillsDir, rel);
      },
      (p) => `no valid init manifest at ${p.manifest}; re-run: skillgate init ${p.root}`,
    ],
  ];
  it.each(refusals)("refuses %s", async (_name, arrange, message) => {
    const target = arrange(paths);
    expect(await verifyCopiedFile(paths, target)).toEqual({ ok: false, message: message(paths) });
  });
});
