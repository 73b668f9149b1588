// runCatalogArgv (the small catalog bundle's entry): the argv it runs itself, and every argv it leaves to the full CLI.
import { describe, expect, it } from "vitest";
import { runCatalogArgv } from "../../../runtime/cli/commands/catalog-main.js";
import { TSX } from "../../mcp/helpers.js";
import { runProcess } from "../../support/process.js";
import { REPO_ROOT } from "../../tools/helpers.js";

describe("runCatalogArgv", () => {
  // None of these prints anything: the full CLI parses them, so its usage errors and help stay the only ones.
  it.each([
    [[]],
    [["--help"]],
    [["-h"]],
    [["a", "b"]],
    [["--json", "--json", "root"]],
    [["--json"]],
    [[""]],
    [["-x"]],
    [["root", "--other"]],
  ])("leaves %j to the full CLI", (args) => {
    expect(runCatalogArgv(args)).toBe(false);
  });

  it("runs `ROOT` and `ROOT --json` (either order) itself, printing the catalog", async () => {
    const script =
      'const { runCatalogArgv } = await import("./runtime/cli/commands/catalog-main.ts");' +
      "const handled = runCatalogArgv(JSON.parse(process.argv[1]));" +
      'process.stderr.write("handled=" + handled + "\\n");';
    const run = (args: string[]) =>
      runProcess(TSX, ["--input-type=module", "-e", script, JSON.stringify(args)], {
        cwd: REPO_ROOT,
        env: { ...process.env, NO_COLOR: "1" },
      });
    const json = await run(["--json", "test/fixtures/skills/valid-root"]);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("handled=true\n");
    expect(JSON.parse(json.stdout).skills.map((skill: { id: string }) => skill.id)).toEqual([
      "docs/writer",
      "review/static-check",
    ]);
    const text = await run(["test/fixtures/skills/valid-root"]);
    expect(text.stdout.split("\n")[1]).toBe("docs/writer  (name: writer)");
    const missing = await run(["no/such/root"]);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toContain('error [PATH_NOT_FOUND]: skill root "no/such/root" does not exist');
  });
});
