// Public API of the tree walker shared by skills/, scan/, workspace/, exec/ and tools/.
export type { EntryKind, Visitor, VisitResult, WalkEntry, WalkFs, WalkOptions, WalkResult } from "./walk.js";
export { nodeWalkFs, walkTree } from "./walk.js";
