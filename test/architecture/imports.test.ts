// runtime/ imports point only downward (docs/architecture.md's layer order), enter other folders through index.ts, never cycle.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { architectureProblems, cycles, importEdges, parseLayerOrder } from "./import-graph.js";
import { REPO, runtimeFiles } from "./runtime-files.js";

const repo = REPO;

function layerOrder(): string[] {
  const layers = parseLayerOrder(readFileSync(join(repo, "docs", "architecture.md"), "utf8"));
  if (!layers) throw new Error("docs/architecture.md has no `layers: a → b → …` line");
  return layers;
}

const LAYERS = ["api", "low", "base"];

describe("the runtime's import graph", () => {
  it("has no upward, circular or index-bypassing import (no exceptions)", () => {
    const files = runtimeFiles();
    expect(files.size).toBeGreaterThan(100);
    const edges = importEdges(files).edges;
    // Type-only and dynamic imports are edges too: a checker that dropped them would pass vacuously.
    expect(
      edges.some(
        (edge) => edge.from === "runtime/tools/types.ts" && edge.to === "runtime/contracts/index.ts",
      ),
    ).toBe(true);
    expect(
      edges.some(
        (edge) => edge.from === "runtime/cli/commands/index.ts" && edge.to === "runtime/cli/commands/init.ts",
      ),
    ).toBe(true);
    expect(architectureProblems("runtime", files, layerOrder())).toEqual([]);
  });

  it("places every runtime folder in the documented layer order, errors.ts at the bottom", () => {
    const layers = layerOrder();
    expect(layers[0]).toBe("index");
    expect(layers.at(-1)).toBe("errors");
    expect(layers.at(-2)).toBe("contracts");
    const folders = readdirSync(join(repo, "runtime"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...folders].sort()).toEqual(
      layers.filter((name) => name !== "index" && name !== "errors").sort(),
    );
  });
});

describe("the import checker", () => {
  const tree = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it("reports an upward import, type-only included, with the exact edge", () => {
    const files = tree({
      "r/low/index.ts": 'import type { A } from "../api/index.js";\nexport type B = A;\n',
      "r/api/index.ts": "export type A = 1;\n",
      "r/base/index.ts": "",
    });
    expect(architectureProblems("r", files, LAYERS)).toEqual([
      "upward import: r/low/index.ts → r/api/index.ts (low may import only layers below it; api is above)",
    ]);
  });

  it("reports an import that bypasses the target folder's index.ts", () => {
    const files = tree({
      "r/api/index.ts": 'export { x } from "../low/x.js";\n',
      "r/low/index.ts": 'export { x } from "./x.js";\n',
      "r/low/x.ts": "export const x = 1;\n",
      "r/base/index.ts": "",
    });
    expect(architectureProblems("r", files, LAYERS)).toEqual([
      "import bypasses index.ts: r/api/index.ts → r/low/x.ts (import r/low/index.ts instead)",
    ]);
  });

  it("reports a cycle of files inside one folder, through a dynamic import", () => {
    const files = tree({
      "r/api/index.ts": 'export { a } from "./a.js";\n',
      "r/api/a.ts": 'export const a = () => import("./b.js");\n',
      "r/api/b.ts": 'import { a } from "./a.js";\nexport const b = a;\n',
      "r/low/index.ts": "",
      "r/base/index.ts": "",
    });
    expect(architectureProblems("r", files, LAYERS)).toEqual([
      "circular import of files: r/api/a.ts → r/api/b.ts → r/api/a.ts",
    ]);
  });

  it("reports a cycle of folders and both upward edges of it", () => {
    const files = tree({
      "r/api/index.ts": 'export * from "../base/index.js";\n',
      "r/base/index.ts": 'export * from "../low/index.js";\n',
      "r/low/index.ts": 'import "../base/index.js";\nimport("../api/index.js");\n',
    });
    expect(architectureProblems("r", files, LAYERS)).toEqual([
      "upward import: r/base/index.ts → r/low/index.ts (base may import only layers below it; low is above)",
      "upward import: r/low/index.ts → r/api/index.ts (low may import only layers below it; api is above)",
      "circular import of files: r/api/index.ts → r/base/index.ts → r/low/index.ts → r/api/index.ts",
      "circular import of folders: api → base → low → api",
    ]);
  });

  it("reports a unit missing from the layer order, a computed import and an import of a missing file", () => {
    const files = tree({
      "r/api/index.ts":
        'const name = "./x.js";\nexport const load = () => import(name);\nimport "./gone.js";\n',
      "r/low/index.ts": "",
      "r/base/index.ts": "",
      "r/extra/index.ts": "",
    });
    expect(architectureProblems("r", files, LAYERS)).toEqual([
      "import with a computed name (cannot be checked): r/api/index.ts:2: import(name)",
      "import of a file that is not a runtime .ts file: r/api/index.ts → ./gone.js",
      "unit missing from the layer order: extra",
    ]);
  });

  it("finds the shortest closed path of a component", () => {
    const next: Record<string, string[]> = { a: ["b", "c"], b: ["c"], c: ["a"], d: ["d"] };
    expect(cycles(Object.keys(next), (node) => next[node] ?? [])).toEqual([
      ["a", "c", "a"],
      ["d", "d"],
    ]);
  });
});
