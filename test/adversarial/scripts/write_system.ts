// Hostile: tries to change system and home files (TypeScript through tsx).
import { appendFileSync } from "node:fs";
for (const path of [...process.argv.slice(2), "/etc/passwd", "/usr/local/bin/evil", "/root/.bashrc"]) {
  try {
    appendFileSync(path, "pwned\n");
    console.log(`WROTE ${path}`);
  } catch (error) {
    console.log(`blocked ${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
}
