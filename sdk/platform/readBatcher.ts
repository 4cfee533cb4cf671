/**
 * Reads (`get` of one object by id) made at about the same time on one client, sent as one multirequest: `pulumi
 * refresh` reads every object of a stack at once, one platform round trip each otherwise. A read waits at most
 * `waitMs` for others, a batch holds at most `maxBatch`; a read alone goes as the plain call it would be without
 * batching. Each read gets what its own call would give: its object, or its own error (not found, a bad answer), as
 * the multirequest's slot reports it; a failure of the whole request (network, HTTP status, throttling past the
 * retries) fails each of its reads with that error. Opt-in (SvcClientOptions.batchReads): the provider turns it on.
 */
import type { z } from "zod";
import type { CallOptions } from "../transport";
import { multirequest } from "./multirequest";
import type { PlatformApi, ReadCoalescer } from "./platformApi";
import type { WireCallSpec } from "./platformWire";

export interface ReadBatching {
  /** Reads in one multirequest at most. */
  maxBatch: number;
  /** How long the first read of a batch waits for others, ms. */
  waitMs: number;
}

interface PendingRead {
  spec: WireCallSpec<z.ZodType>;
  options: CallOptions;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class ReadBatcher implements ReadCoalescer {
  private pending: PendingRead[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly api: PlatformApi,
    private readonly batching: ReadBatching,
  ) {}

  read<S extends z.ZodType>(spec: WireCallSpec<S>, options: CallOptions = {}): Promise<z.output<S>> {
    return new Promise((resolve, reject) => {
      this.pending.push({ spec, options, resolve, reject });
      if (this.pending.length >= this.batching.maxBatch) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.batching.waitMs);
    });
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    // Reads that share their timeout and retries go together; others in their own batch.
    const groups = new Map<string, PendingRead[]>();
    for (const read of batch) {
      const key = optionsKey(read.options);
      groups.set(key, [...(groups.get(key) ?? []), read]);
    }
    for (const group of groups.values()) void this.send(group);
  }

  private async send(group: PendingRead[]): Promise<void> {
    if (group.length === 1) {
      const [read] = group as [PendingRead];
      await this.api.call(read.spec, read.options).then(read.resolve, read.reject);
      return;
    }
    // The batch ends when the first of its reads' signals ends: the reads of one operation share its Cancel and
    // have deadlines within a wait of each other.
    const signals = group.flatMap(({ options }) => (options.signal ? [options.signal] : []));
    const options: CallOptions = { ...group[0]!.options, signal: signals.length > 0 ? AbortSignal.any(signals) : undefined };
    try {
      const results = await multirequest(
        this.api,
        group.map(({ spec }) => ({ service: spec.service, action: spec.action, params: spec.params, schema: spec.schema })),
        options,
      );
      for (const [i, result] of results.entries()) {
        if (result.ok) group[i]!.resolve(result.value);
        else group[i]!.reject(result.error);
      }
    } catch (error) {
      for (const read of group) read.reject(error);
    }
  }
}

/** Reads with the same timeout and retries share a request. */
function optionsKey(options: CallOptions): string {
  return `${options.timeoutMs ?? ""}/${options.maxRetries ?? ""}`;
}
