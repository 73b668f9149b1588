// A network grant needs slirp4netns and, for a normal user, a usable /dev/net/tun; otherwise the run is refused.
import { access, constants } from "node:fs/promises";
import { findSlirp4netns } from "../netns.js";
import { outcomes, type RunOutcome } from "../outcome.js";

/** slirp4netns, run as a normal user, opens /dev/net/tun itself (root always may). */
async function tunAccessProblem(): Promise<string | null> {
  if (process.getuid?.() === 0) return null;
  try {
    await access("/dev/net/tun", constants.R_OK | constants.W_OK);
    return null;
  } catch (error) {
    return `/dev/net/tun is not readable and writable for uid ${process.getuid?.()} (${(error as NodeJS.ErrnoException).code})`;
  }
}

/** slirp4netns for a granted bwrap run (null without a grant), or the refusal saying what is missing. */
export async function userNetFor(
  script: string,
  granted: boolean,
): Promise<{ slirp: string | null } | { refusal: RunOutcome }> {
  if (!granted) return { slirp: null };
  const slirp = findSlirp4netns();
  if (slirp === null) {
    return {
      refusal: outcomes.unavailable(
        `script '${script}' is granted the network, which runs through user-mode networking (slirp4netns) in its own network namespace so the host's loopback services stay unreachable, but slirp4netns is not installed`,
        "apt-get install slirp4netns, or remove the network grant (exec.grants) of this skill",
      ),
    };
  }
  const tun = await tunAccessProblem();
  if (tun !== null) {
    return {
      refusal: outcomes.unavailable(
        `script '${script}' is granted the network, but its user-mode network cannot start: ${tun}`,
        "make /dev/net/tun usable (its usual mode is 0666), run skillgate as root, or remove the network grant (exec.grants) of this skill",
      ),
    };
  }
  return { slirp };
}
