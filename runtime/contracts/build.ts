// Identity of the built CLI bundle: scripts/bundle-cli.mjs defines it (a digest of the sources); null in sources and tsc output.
declare const __SKILLGATE_BUILD__: string | undefined;

/** Caches that hold results of our own code (the config memo) are keyed by it, so a rebuild never reads stale ones. */
export const BUILD_ID: string | null = typeof __SKILLGATE_BUILD__ === "string" ? __SKILLGATE_BUILD__ : null;
