// The bed of the held-sandbox tests: probe skills on an initialised workspace, SKILLGATE_HOME pointed at it, and the log of the script's runs.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { sharedPreparedPool } from "../../../runtime/exec/prepared/pool.js";
import { type Bed, type HostileSkill, makeBed, useBedHome } from "../../adversarial/tool-bed.js";

export interface HeldBed {
  bed: Bed;
  /** The lines the probe scripts appended to $OUT/ran.txt, one per run that reached the script. */
  ran(): string[];
  /** Empties that log. */
  forgetRuns(): void;
  /** Kills whatever the process's pool holds, restores SKILLGATE_HOME and removes the bed. */
  close(): Promise<void>;
}

export async function makeHeldBed(skills: HostileSkill[]): Promise<HeldBed> {
  const bed = await makeBed({ skills, exec: { timeout_seconds: 60 } });
  const restoreHome = useBedHome(bed);
  const log = join(bed.ws, "out", "ran.txt");
  mkdirSync(dirname(log), { recursive: true });
  return {
    bed,
    ran: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
    forgetRuns: () => rmSync(log, { force: true }),
    async close() {
      await sharedPreparedPool()?.close(true);
      restoreHome();
      bed.cleanup();
    },
  };
}
