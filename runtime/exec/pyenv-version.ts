// pyenv's version selection, in process: PYENV_VERSION, the nearest .python-version from the run's folder, <root>/version.
import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";

export function pyenvRoot(env: NodeJS.ProcessEnv): string | null {
  const root = env.PYENV_ROOT ?? (env.HOME ? join(env.HOME, ".pyenv") : null);
  if (root === null) return null;
  try {
    return realpathSync(root);
  } catch {
    return null;
  }
}

/**
 * A version file's text, or null: the workspace's may be planted by the agent, so only a small regular file is read
 * (opened non-blocking and without following a final link, so a FIFO or a link to a host file is never read).
 */
function versionFileText(file: string): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    return info.isFile() && info.size <= 4096 ? readFileSync(fd, "utf8") : null;
  } finally {
    closeSync(fd);
  }
}

/** pyenv's version selection: PYENV_VERSION, the nearest .python-version, then <root>/version. */
export function pyenvVersions(root: string, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const read = (file: string): string[] | null =>
    versionFileText(file)
      ?.split(/\s+/)
      .filter((word) => word.length > 0 && !word.startsWith("#")) ?? null;
  if (env.PYENV_VERSION) return env.PYENV_VERSION.split(":").filter((word) => word.length > 0);
  let dir = cwd;
  for (;;) {
    const found = read(join(dir, ".python-version"));
    if (found) return found;
    if (dirname(dir) === dir) break;
    dir = dirname(dir);
  }
  return read(join(root, "version")) ?? ["system"];
}
