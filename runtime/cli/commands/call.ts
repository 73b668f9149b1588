// `skillgate call <Tool> [JSON]`: invoke any agent tool from a shell; state persists in the workspace between calls.
import type { Command } from "commander";
import { TOOL_NAMES } from "../../contracts/index.js";
import { SkillgateError } from "../../errors.js";
import { type CliIO, EXIT_FAILED, reportError } from "../io.js";
import {
  addSessionOptions,
  initProgressPrinter,
  type SessionFlags,
  sessionOptionsFrom,
} from "../session-options.js";
import { warmWhileAChildRuns } from "../warm-while-child.js";

function parseArgs(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SkillgateError(
      "USAGE",
      `tool arguments are not valid JSON (${(error as Error).message}): ${text}. Quote the JSON for your shell, ` +
        `e.g. skillgate call ReadTextFile '{"path": "dut/README.md"}' --workspace ./ws`,
    );
  }
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command("call")
    .description(
      "Call one agent tool (ListSkill, ReadTextFile, RunSkillScript, SetSkillUsage, Check, Complete, Status)",
    )
    .argument("<tool>", `tool name: ${TOOL_NAMES.join(", ")}`)
    .argument("[json]", "tool arguments as one JSON object (default {})");
  addSessionOptions(command).addHelpText(
    "after",
    [
      "",
      "Exit codes: 0 the tool succeeded, 1 the tool reported an error (isError), 2 usage error.",
      "Examples:",
      "  skillgate call Status --workspace ./ws",
      "  skillgate call ListSkill --workspace ./ws",
      `  skillgate call ReadTextFile '{"path": ".ucagent/skills/review/static-bug-analysis/SKILL.md"}' --workspace ./ws`,
      `  skillgate call RunSkillScript '{"commands": [["review/static-bug-analysis", "list_bugs.ts", ""]]}' -w ./ws`,
    ].join("\n"),
  );
  command.action(async (tool: string, json: string | undefined, flags: SessionFlags, self: Command) => {
    try {
      const args = parseArgs(json);
      const options = sessionOptionsFrom(self, flags, flags.workspace);
      // A workspace served on a socket (an authority) is called there: this process never opens its state or key.
      const { callThroughServer } = await import("../../authority/index.js");
      const served = await callThroughServer(options, tool, args);
      let result = served;
      if (!result) {
        // Loaded on use so `skillgate --help` and other verbs start fast.
        const { openSession } = await import("../../tools/index.js");
        const { callTool } = await import("../../tools/index.js");
        const session = await openSession({
          ...options,
          catalog: "static",
          // One call, then exit: a deferred receipt would only be flushed in a second commit before the exit.
          durability: "inline",
          // RunSkillScript starts the engine while the script's sandbox is built (the script waits for it).
          engineOnUse: tool === "RunSkillScript",
          onProgress: initProgressPrinter((text) => io.err(io.colour("dim", text))),
        });
        // The lock this call takes after its run loads while the run's child works, not after it.
        const { warmWorkspaceLock } = await import("../../workspace/index.js");
        const stopWarming = warmWhileAChildRuns(warmWorkspaceLock);
        try {
          result = await callTool(session, tool, args);
        } finally {
          stopWarming();
        }
      }
      // An unknown tool is a usage error of this command line (exit 2), not failed work of a tool.
      if (result.isError && result.code === "USAGE") {
        throw new SkillgateError("USAGE", result.text, { tool });
      }
      if (flags.json) {
        io.out(
          JSON.stringify(
            {
              tool,
              isError: result.isError,
              code: result.code ?? null,
              text: result.text,
              structured: result.structured,
            },
            null,
            2,
          ),
        );
      } else if (result.isError) {
        io.out(
          `${io.colour("red", `${tool} failed${result.code ? ` [${result.code}]` : ""}:`)}\n${result.text}`,
        );
      } else {
        io.out(result.text);
      }
      if (result.isError) io.setExitCode(EXIT_FAILED);
    } catch (error) {
      reportError(io, error, Boolean(flags.json));
    }
  });
}
