// Warnings the engine owes the next tool result (ledger tampering, hook failures, a changed workflow); drained once.
export class PendingWarnings {
  private readonly items: string[] = [];

  add(text: string): void {
    this.items.push(text);
  }

  /** Adds text unless the same warning is already waiting (a per-call condition seen many times in one call). */
  addOnce(text: string): void {
    if (!this.items.includes(text)) this.items.push(text);
  }

  /** Returns the waiting warnings and clears them. */
  drain(): string[] {
    return this.items.splice(0, this.items.length);
  }
}
