// `skillgate catalog ROOT`: the skills found under a root (id, name, description, scripts) and why others were skipped.
import type { Command } from "commander";
import type { CliIO } from "../io.js";
import { runCatalog } from "./catalog-run.js";

export function register(program: Command, io: CliIO): void {
  program
    .command("catalog")
    .description("List the skills under a skill root in catalog order, with the diagnostics of skipped ones.")
    .argument("<root>", "folder holding skill folders (e.g. <workspace>/.ucagent/skills)")
    .option("--json", "print the catalog as JSON")
    .action((root: string, options: { json?: boolean }) => runCatalog(root, options.json === true, io));
}
