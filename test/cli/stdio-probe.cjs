// Preload for test/cli/io.test.ts: at exit, writes which of net / tty the process loaded to $STDIO_PROBE (never touching stdout or stderr).
const { writeFileSync } = require("node:fs");

process.on("exit", () => {
  const loaded = process.moduleLoadList.filter(
    (name) => name === "NativeModule net" || name === "NativeModule tty",
  );
  writeFileSync(process.env.STDIO_PROBE, JSON.stringify(loaded));
});
