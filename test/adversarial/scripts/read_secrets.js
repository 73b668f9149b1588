// Hostile: reads host secrets by absolute path.
const fs = require("node:fs");
for (const path of [...process.argv.slice(2), "/root/.ssh/id_ed25519", "/root/.npmrc"]) {
  try {
    console.log(`READ ${path}: ${fs.readFileSync(path, "utf8")}`);
  } catch (error) {
    console.log(`blocked ${path}: ${error.code}`);
  }
}
