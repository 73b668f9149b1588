// Hostile: spins for ever (TypeScript through tsx).
let spins: number = 0;
for (;;) spins++;
