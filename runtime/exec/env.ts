// The environment allow-list of script runs: which variable names may reach a script at all.

/** Names skillgate sets itself; a skill may not declare or override them. */
export const RESERVED_ENV_NAMES = new Set([
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "TMPDIR",
  "DUT",
  "OUT",
  "SKILLGATE_RUN_ID",
]);

const DANGEROUS_EXACT = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_EXTRA_CA_CERTS",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PROMPT_COMMAND",
  "PS4",
  "IFS",
  "CDPATH",
  "GLOBIGNORE",
  "PERL5LIB",
  "PERL5OPT",
  "PERLLIB",
  "RUBYLIB",
  "RUBYOPT",
  "GCONV_PATH",
  "LOCPATH",
  "MALLOC_CONF",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "SHELL",
]);

/** Prefixes that load code or reroute traffic: dynamic loader, interpreters, proxies, bash exported functions. */
const DANGEROUS_PREFIXES = ["LD_", "DYLD_", "PYTHON", "BASH_FUNC_", "GIT_", "SKILLGATE_"];

/** Why `name` may not be passed to a script, or null when it may. */
export function envNameProblem(name: string): string | null {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return "is not a valid variable name";
  const upper = name.toUpperCase();
  if (RESERVED_ENV_NAMES.has(upper)) return "is set by skillgate itself";
  if (DANGEROUS_EXACT.has(upper)) return "can change how interpreters or shells load code";
  if (DANGEROUS_PREFIXES.some((prefix) => upper.startsWith(prefix))) {
    return "belongs to a family that loads code, reroutes traffic or controls skillgate";
  }
  if (upper.endsWith("_PROXY")) return "reroutes network traffic";
  return null;
}

/** Names skillgate sets for a run and that therefore pass the filter even though a skill cannot declare them. */
const SKILLGATE_SET = new Set(["DUT", "OUT", "SKILLGATE_RUN_ID"]);

/** Keeps the variables of `requested` that may reach a script; returns them and the dropped names. */
export function filterRunEnv(
  requested: Record<string, string>,
  ownNames: ReadonlySet<string> = new Set(),
): { env: Record<string, string>; dropped: string[] } {
  const env: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(requested)) {
    if (SKILLGATE_SET.has(name) || ownNames.has(name) || envNameProblem(name) === null) {
      if (!value.includes("\0")) {
        env[name] = value;
        continue;
      }
    }
    dropped.push(name);
  }
  return { env, dropped: dropped.sort() };
}
