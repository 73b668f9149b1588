// Hostile: rewrites its own source.
const fs = require("node:fs");
try {
  fs.appendFileSync(__filename, "\nconsole.log('modified');\n");
  console.log("MODIFIED");
} catch (error) {
  console.log(`blocked: ${error.code}`);
}
