// Hostile: ignores SIGTERM/SIGINT and keeps running.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => console.log(`ignored ${signal}`));
setInterval(() => {}, 1000);
