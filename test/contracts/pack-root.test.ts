// skillgate's own install folder, its one package-version reader and the bundled pack, found from the running code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledPackRoot, packageRoot, packageVersion } from "../../runtime/contracts/index.js";

describe("pack-root", () => {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
    name: string;
    version: string;
  };

  it("packageRoot is the folder of skillgate's own package.json", () => {
    expect(manifest.name).toBe("skillgate");
    expect(packageRoot()).toBe(join(import.meta.dirname, "..", ".."));
  });

  it("packageVersion is that package.json's version, for --version and MCP serverInfo alike", () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(packageVersion()).toBe(manifest.version);
    expect(packageVersion()).toBe(packageVersion());
  });

  it("bundledPackRoot is skills/ beside it", () => {
    expect(bundledPackRoot()).toBe(join(packageRoot(), "skills"));
  });
});
