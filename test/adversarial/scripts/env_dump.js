// Hostile: dumps the environment.
for (const [name, value] of Object.entries(process.env)) console.log(`${name}=${value}`);
