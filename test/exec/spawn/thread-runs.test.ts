// runScript's own tests (test/exec/run-script.test.ts) once more, every hand-shake run spawned on the spawn thread as in serve --http.
import { afterAll, expect, it } from "vitest";
import { offThreadSpawns, spawnOffThread } from "../../../runtime/exec/spawn/spawn.js";

spawnOffThread(true);
await import("../run-script.test.js");

afterAll(() => spawnOffThread(false));

it("spawned those runs' sandboxes on the spawn thread", () => {
  expect(offThreadSpawns()).toBeGreaterThan(10);
});
