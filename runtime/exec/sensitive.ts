// Host paths a script must never see or change: credentials, shell start-up files, agent configs.
import { join } from "node:path";

/** Paths relative to the user's home. */
export const SENSITIVE_HOME_ENTRIES = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".azure",
  ".kube",
  ".docker",
  ".config/gcloud",
  ".config/gh",
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".npmrc",
  ".yarnrc",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".gitconfig",
  ".pip",
  ".config/pip",
  ".claude",
  ".claude.json",
  ".codex",
  ".cursor",
  ".gemini",
  ".skillgate",
];

export function sensitiveHomePaths(home: string): string[] {
  return SENSITIVE_HOME_ENTRIES.map((entry) => join(home, entry));
}
