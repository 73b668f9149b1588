// Child process for the master-key race test: `<home>` loads (creating if needed) the master key and prints it in hex.
import { loadMasterKey } from "../../runtime/evidence/index.js";

const [home] = process.argv.slice(2);
process.stdout.write(`${(await loadMasterKey(home!)).toString("hex")}\n`);
