// Cost of the run-time integrity check: cached verify of an unchanged copy vs hashing the file every time.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, bench, describe } from "vitest";
import { ConfigSchema } from "../../runtime/config/index.js";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { initWorkspace, sha256File, verifyCopiedFile } from "../../runtime/workspace/index.js";
import { printTable, Samples } from "../bench/report.js";
import { tempRoot } from "../support/workspace.js";

// Init marks the copied pack read-only; the shared cleanup makes its folders writable again before removing them.
const temp = tempRoot("skillgate-verify-bench-");
const root = temp.dir;
process.on("exit", () => temp.cleanup());
const pack = join(root, "pack");
mkdirSync(join(pack, "big/scripts"), { recursive: true });
writeFileSync(join(pack, "big/SKILL.md"), "---\nname: big\ndescription: bench\n---\n");
writeFileSync(join(pack, "big/scripts/tool.py"), "x = 1\n".repeat(200_000)); // ~1.2 MB
const paths = workspacePaths(join(root, "ws"));
await initWorkspace({ workspace: paths.root, config: ConfigSchema.parse({ skill: { pack_path: pack } }) });
const script = join(paths.skillsDir, "big/scripts/tool.py");
const samples = new Samples();

afterAll(() => {
  if (samples.get("verify").length === 0) return; // set-up failed: vitest reports why
  printTable("verifyCopiedFile on a 1.2 MB script (run-time integrity check)", [
    {
      name: "verify, cached by path+inode+size+mtime+ctime",
      ours: samples.median("verify"),
      baseline: samples.median("sha256"),
      baselineName: "sha256 of the file on every call (no cache)",
      target: "",
      met: null,
    },
  ]);
});

describe("verifyCopiedFile on a 1.2 MB script", () => {
  bench("verify (cached by path+inode+size+mtime+ctime)", async () => {
    const result = await samples.timeAsync("verify", () => verifyCopiedFile(paths, script));
    if (!result.ok) throw new Error(result.message);
  });
  bench("sha256 of the file each time (no cache)", async () => {
    await samples.timeAsync("sha256", () => sha256File(script));
  });
});
