// Runs only the `init` verb (as runtime/cli/main.ts does) so its CLI test does not depend on other verbs.
import { Command, CommanderError } from "commander";
import { register } from "../../runtime/cli/commands/init.js";
import { EXIT_USAGE, processIO } from "../../runtime/cli/io.js";

const io = processIO();
const program = new Command("skillgate").exitOverride();
register(program, io);
try {
  await program.parseAsync(process.argv.slice(2), { from: "user" });
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  if (error.exitCode !== 0) io.setExitCode(EXIT_USAGE);
}
