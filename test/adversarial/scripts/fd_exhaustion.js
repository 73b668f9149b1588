// Hostile: opens descriptors until EMFILE.
const fs = require("node:fs");
let count = 0;
try {
  for (; count < 100000; count++) fs.openSync("/dev/null", "r");
} catch {}
console.log(`fds=${count}`);
