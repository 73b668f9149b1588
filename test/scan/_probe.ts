import { scanFiles, formatFinding } from "../../runtime/scan/index.js";
const t = Date.now();
const f = await scanFiles([process.argv[2]!], { maxFiles: 200000, minSeverity: (process.argv[3] ?? "critical") as "critical" });
console.log(Date.now() - t, "ms");
for (const x of f) console.log(formatFinding(x).slice(0, 200), "|", x.excerpt.slice(0, 150));
