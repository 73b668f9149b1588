// Copies non-TypeScript runtime assets (default.yaml, rule files) next to the compiled JS in dist/.
import { cpSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ASSET_EXTENSIONS = [".yaml", ".yml", ".json"];
function copyAssets(dir) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) copyAssets(full);
    else if (ASSET_EXTENSIONS.some((ext) => entry.endsWith(ext))) {
      const target = join("dist", relative(".", full));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(full, target);
    }
  }
}
copyAssets("runtime");
