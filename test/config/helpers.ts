// Temp folders for config tests: a fake $SKILLGATE_HOME, a workspace and files written into them.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isolateHome, tempRoot } from "../support/workspace.js";

export interface ConfigSandbox {
  root: string;
  home: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** A default.yaml of the test's own (the real one is the pack helper's and may change). */
  defaultFile: string;
  write(relativePath: string, text: string): string;
  cleanup(): void;
}

export function configSandbox(): ConfigSandbox {
  const temp = tempRoot("skillgate-config-");
  const root = temp.dir;
  const workspace = join(root, "ws");
  mkdirSync(join(workspace, ".ucagent"), { recursive: true });
  const { home } = isolateHome(root);
  return {
    root,
    home,
    workspace,
    env: { SKILLGATE_HOME: home },
    defaultFile: join(root, "default.yaml"),
    write(relativePath, text) {
      const file = join(root, relativePath);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      return file;
    },
    cleanup: temp.cleanup,
  };
}
