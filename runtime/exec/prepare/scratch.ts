// The run's HOME and TMPDIR: bwrap's private /tmp, or a throwaway host folder for runs without bwrap.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunRequest } from "../types.js";

const SANDBOX_UID_HOME = "/tmp/home";

export interface Scratch {
  home: string;
  tmp: string;
  /** The host folder made for this run, or null inside bwrap. */
  dir: string | null;
  /** Caches and the host-visible TMPDIR, bound writable beside the writable paths. */
  writableExtras: string[];
  remove(): Promise<void>;
}

export async function prepareScratch(req: RunRequest, bwrap: boolean): Promise<Scratch> {
  await Promise.all((req.persistentPaths ?? []).map((path) => mkdir(path, { recursive: true })));
  const dir = bwrap ? null : await mkdtemp(join(tmpdir(), "skillgate-run-"));
  const home = dir === null ? SANDBOX_UID_HOME : join(dir, "home");
  const tmp = req.tmpDir ?? (dir === null ? "/tmp" : join(dir, "tmp"));
  if (dir !== null) await mkdir(home);
  if (req.tmpDir !== undefined || dir !== null) await mkdir(tmp, { recursive: true });
  return {
    home,
    tmp,
    dir,
    writableExtras: [...(req.persistentPaths ?? []), ...(req.tmpDir === undefined ? [] : [req.tmpDir])],
    remove: async () => {
      if (dir !== null) await rm(dir, { recursive: true, force: true });
    },
  };
}
