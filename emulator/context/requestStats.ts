/** Request counts per `service.action` (multirequest counts itself and each of its sub-requests). */
export class RequestStats {
  private counts = new Map<string, number>();

  count(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }

  reset(): void {
    this.counts.clear();
  }
}
