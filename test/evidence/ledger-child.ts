// Child process for the group-commit race tests: `<ws> <home> <who> <n>` appends n run records at once through one EvidenceLedger.
import { workspacePaths } from "../../runtime/contracts/index.js";
import { EvidenceLedger } from "../../runtime/evidence/index.js";

const [workspace, home, who, countText] = process.argv.slice(2);
const ledger = new EvidenceLedger(workspacePaths(workspace!), { home: home! });
const count = Number(countText);
await Promise.all(
  Array.from({ length: count }, (_, i) =>
    ledger.transact((snap) => ({
      records: [{ stage: snap.state.stageIndex, kind: "run", data: { who, i } }],
      result: undefined,
    })),
  ),
);
process.stdout.write(`done ${who}\n`);
