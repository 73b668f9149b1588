// Hostile: dumps the environment (TypeScript through tsx).
const entries: Array<[string, string | undefined]> = Object.entries(process.env);
for (const [name, value] of entries) console.log(`${name}=${value}`);
