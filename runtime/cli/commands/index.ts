// The list of CLI verbs; each module exports `register(program, io)` and is loaded only when its verb runs.
import type { Command } from "commander";
import type { CliIO } from "../io.js";

export type RegisterCommand = (program: Command, io: CliIO) => void;

type Loader = () => Promise<{ register: RegisterCommand }>;

/** In help order. A verb's module (and what it imports) loads only when that verb runs, or for help. */
export const commandLoaders: ReadonlyArray<readonly [string, Loader]> = [
  ["init", () => import("./init.js")],
  ["call", () => import("./call.js")],
  ["serve", () => import("./serve.js")],
  ["connect", () => import("./connect.js")],
  ["status", () => import("./status.js")],
  ["scan", () => import("./scan.js")],
  ["validate", () => import("./validate.js")],
  ["catalog", () => import("./catalog.js")],
  ["export", () => import("./export.js")],
  ["verify", () => import("./verify.js")],
];

/**
 * The register functions needed for `argv`: only the named verb's when argv starts with a known verb,
 * every verb otherwise (help, an unknown verb, a leading option), so commander's help and
 * "unknown command" suggestions see them all.
 */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const verb = argv[0];
  const only = commandLoaders.find(([name]) => name === verb);
  const chosen = only ? [only] : commandLoaders;
  const modules = await Promise.all(chosen.map(([, load]) => load()));
  return modules.map((module) => module.register);
}
