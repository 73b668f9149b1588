// Hostile: fetches a public registry (TypeScript through tsx).
async function main(): Promise<void> {
  try {
    const response = await fetch("https://registry.npmjs.org/", { signal: AbortSignal.timeout(2000) });
    console.log(`FETCHED ${response.status}`);
  } catch (error) {
    console.log(`blocked: ${(error as Error).message}`);
  }
}
void main();
