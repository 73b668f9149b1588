// runtime/exec/cgroup-sweep.ts (root, real cgroups): an old empty run folder left by a dead process is swept; one of this process's live runs never is.
import { existsSync, mkdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPidsCgroup } from "../../runtime/exec/cgroup.js";
import { rmdirQuiet, sweepStale } from "../../runtime/exec/cgroup-sweep.js";

const PIDS_PARENT = "/sys/fs/cgroup/pids/skillgate";
const twoMinutesAgo = () => new Date(Date.now() - 120_000);

function needsCgroups(): void {
  if (process.getuid?.() !== 0 || !existsSync(PIDS_PARENT))
    throw new Error(`needs root and the cgroup v1 pids hierarchy at ${PIDS_PARENT}`);
}

describe("sweepStale", () => {
  it("removes an empty sg- folder older than a minute that no live run of this process holds", () => {
    needsCgroups();
    const left = join(PIDS_PARENT, `sg-left-by-dead-${process.pid}`);
    const young = join(PIDS_PARENT, `sg-young-${process.pid}`);
    const other = join(PIDS_PARENT, `not-a-run-${process.pid}`);
    for (const dir of [left, young, other]) mkdirSync(dir);
    try {
      utimesSync(left, twoMinutesAgo(), twoMinutesAgo());
      utimesSync(other, twoMinutesAgo(), twoMinutesAgo());
      sweepStale(PIDS_PARENT);
      expect({ left: existsSync(left), young: existsSync(young), other: existsSync(other) }).toEqual({
        left: false,
        young: true,
        other: true,
      });
    } finally {
      for (const dir of [left, young, other]) rmdirQuiet(dir);
    }
  });

  it("keeps this process's run folder however long its run waits to start, and sweeps it once released", async () => {
    needsCgroups();
    // A run on a loaded server can wait more than a minute between making its cgroup and starting bwrap in it.
    const made = createPidsCgroup(`sg-waiting-${process.pid}`, 16);
    if (!("cgroup" in made)) throw new Error(`cannot make a cgroup: ${made.reason}`);
    const { dir } = made.cgroup;
    utimesSync(dir, twoMinutesAgo(), twoMinutesAgo());
    // Another run's creation sweeps first.
    const next = createPidsCgroup(`sg-next-${process.pid}`, 16);
    if (!("cgroup" in next)) throw new Error(`cannot make a cgroup: ${next.reason}`);
    try {
      expect(existsSync(dir)).toBe(true);
    } finally {
      await made.cgroup.release();
      await next.cgroup.release();
    }
    expect(existsSync(dir)).toBe(false);
  });
});
