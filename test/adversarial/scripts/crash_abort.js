// Hostile: aborts (SIGABRT).
process.abort();
