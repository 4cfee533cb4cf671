/**
 * What a provider process knows of the objects it manages and of the creates it has in flight: what create recovery
 * (recovery.ts) needs so that it never adopts an object the stack already records, nor one another create of this
 * process is about to answer with.
 */
export class CreateLedger {
  /** Ids the engine has told this process about (diff, read, update, delete) or that it created or adopted. */
  private readonly managed = new Set<string>();
  /** Create calls in flight in this process, by the fingerprint of their fields. */
  private readonly inFlight = new Map<string, Set<Promise<unknown>>>();

  noteManaged(id: string | undefined): void {
    if (id) this.managed.add(id);
  }

  isManaged(id: string): boolean {
    return this.managed.has(id);
  }

  /** Tracks a create call until it settles. */
  track(fingerprint: string, attempt: Promise<unknown>): void {
    let set = this.inFlight.get(fingerprint);
    if (!set) this.inFlight.set(fingerprint, (set = new Set()));
    const calls = set;
    calls.add(attempt);
    const untrack = (): void => {
      calls.delete(attempt);
      if (calls.size === 0 && this.inFlight.get(fingerprint) === calls) this.inFlight.delete(fingerprint);
    };
    attempt.then(untrack, untrack);
  }

  /** Settles when every create call of `fingerprint` in flight now has settled (never rejects). */
  async settled(fingerprint: string): Promise<void> {
    await Promise.allSettled([...(this.inFlight.get(fingerprint) ?? [])]);
  }
}
