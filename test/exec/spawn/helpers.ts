// Shared by the spawn tests: the child's open descriptors up to 6, from the `ls /proc/self/fd | sort -n` line it printed.
export function lowFds(line: string | undefined): number[] {
  return (line ?? "")
    .trim()
    .split(" ")
    .map(Number)
    .filter((fd) => fd <= 6);
}
