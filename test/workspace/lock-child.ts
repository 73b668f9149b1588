// Child process for lock tests: `increment <ws> <n>` bumps a counter n times under the lock;
// `hold <ws>` takes the lock, prints "locked" and waits to be killed; `exit <ws>` calls process.exit while holding it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { workspacePaths } from "../../runtime/contracts/index.js";
import { withWorkspaceLock, writeFileAtomic } from "../../runtime/workspace/index.js";

const [mode, workspace, countText] = process.argv.slice(2);
const paths = workspacePaths(workspace!);
const counter = join(paths.skillgateDir, "counter.txt");

if (mode === "increment") {
  for (let i = 0; i < Number(countText); i++) {
    await withWorkspaceLock(paths, async () => {
      const value = Number(await readFile(counter, "utf8").catch(() => "0"));
      // Yield between read and write so an unserialised run would lose updates.
      await new Promise((done) => setImmediate(done));
      await writeFileAtomic(counter, String(value + 1));
    });
  }
} else if (mode === "hold") {
  await withWorkspaceLock(
    paths,
    async () => {
      process.stdout.write("locked\n");
      // proper-lockfile's refresh timer is unref'd: keep the process alive until the test kills it.
      setInterval(() => undefined, 60_000);
      await new Promise(() => undefined);
    },
    { staleMs: 2_000 },
  );
} else if (mode === "exit") {
  await withWorkspaceLock(paths, () => {
    // What `serve` does after its close when a background ledger flush still holds the lock.
    process.exit(0);
  });
}
