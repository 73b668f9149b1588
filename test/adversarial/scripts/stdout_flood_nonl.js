// Hostile: 100 MB on stdout without newlines.
const chunk = "z".repeat(1 << 16);
let left = 1600;
function pump() {
  while (left > 0) {
    left--;
    if (!process.stdout.write(chunk)) return process.stdout.once("drain", pump);
  }
}
pump();
