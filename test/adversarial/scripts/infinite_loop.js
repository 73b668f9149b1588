// Hostile: spins for ever.
for (;;) {}
