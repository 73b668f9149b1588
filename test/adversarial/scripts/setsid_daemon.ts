// Hostile: a detached (setsid) child that outlives the script and writes a file (TypeScript through tsx).
import { spawn } from "node:child_process";
const marker: string = process.argv[2] ?? "/tmp/none";
const child = spawn("sh", ["-c", `sleep 1.5; echo daemon survived > '${marker}'; sleep 60`], { detached: true, stdio: "ignore" });
child.unref();
console.log("parent done");
