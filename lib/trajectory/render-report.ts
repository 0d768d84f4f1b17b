import type { TakeoverRule } from '@/lib/protocol';

/** What one takeover safeguard did in a rendering: the changes it made, and what it let through as it was (it was off). */
export interface SafeguardCount {
  applied: number;
  as_is: number;
}

/**
 * What rendering did to a trajectory for one vendor. A swap event shows it verbatim, so
 * entries are sentences a person reads, not codes.
 */
export interface RenderReport {
  converted: string[];
  dropped: { kind: string; detail: string }[];
  /**
   * What went to the vendor as it was although a safeguard would have changed it (a naive
   * takeover, or one safeguard switched off): foreign credentials, a reference, a missing field.
   */
  asIs: string[];
  /**
   * The entries above that a takeover safeguard made (or, off, let through), counted per
   * safeguard by the renderer that applied it: only safeguards that came into play.
   */
  safeguards: Partial<Record<TakeoverRule, SafeguardCount>>;
}

/** Collects report entries; conversions (and what went as it was) are counted so a long run does not repeat itself. */
export interface ReportBuilder {
  /** `by`: the safeguard whose change this is, when one made it. */
  count(conversion: string, by?: TakeoverRule): void;
  drop(kind: string, detail: string, by?: TakeoverRule): void;
  /** Something a safeguard would have changed, sent as it was (naive, or that safeguard off). */
  asIs(what: string, by?: TakeoverRule): void;
  build(): RenderReport;
}

export function createReportBuilder(): ReportBuilder {
  const counts = new Map<string, number>();
  const asIs = new Map<string, number>();
  const dropped: RenderReport['dropped'] = [];
  const safeguards: RenderReport['safeguards'] = {};
  const counted = (m: Map<string, number>) => [...m].map(([what, n]) => `${n} × ${what}`);
  const tally = (by: TakeoverRule | undefined, field: keyof SafeguardCount) => {
    if (by === undefined) return;
    const entry = (safeguards[by] ??= { applied: 0, as_is: 0 });
    entry[field]++;
  };
  return {
    count(conversion, by) {
      counts.set(conversion, (counts.get(conversion) ?? 0) + 1);
      tally(by, 'applied');
    },
    drop(kind, detail, by) {
      dropped.push({ kind, detail });
      tally(by, 'applied');
    },
    asIs(what, by) {
      asIs.set(what, (asIs.get(what) ?? 0) + 1);
      tally(by, 'as_is');
    },
    build() {
      return {
        converted: counted(counts),
        dropped: [...dropped],
        asIs: counted(asIs),
        safeguards: structuredClone(safeguards),
      };
    },
  };
}

/** One call a renderer made on a report, kept so a cached rendering can report it again. */
export type ReportCall =
  | readonly [kind: 'count', conversion: string, by?: TakeoverRule]
  | readonly [kind: 'drop', dropKind: string, detail: string, by?: TakeoverRule]
  | readonly [kind: 'as_is', what: string, by?: TakeoverRule];

/**
 * A builder that only keeps its calls in `calls`, for a report made later (or never: most
 * requests are not a takeover's first, and nobody reads their report).
 */
export function recordingReport(calls: ReportCall[]): Omit<ReportBuilder, 'build'> {
  return new CallRecorder(calls);
}

/** A class rather than two closures: one is made for every message rendered. */
class CallRecorder implements Omit<ReportBuilder, 'build'> {
  constructor(private readonly calls: ReportCall[]) {}

  count(conversion: string, by?: TakeoverRule): void {
    this.calls.push(['count', conversion, by]);
  }

  drop(kind: string, detail: string, by?: TakeoverRule): void {
    this.calls.push(['drop', kind, detail, by]);
  }

  asIs(what: string, by?: TakeoverRule): void {
    this.calls.push(['as_is', what, by]);
  }
}

/** The report of a rendering from the calls its parts made, list after list, in order. */
export function reportFromCalls(lists: readonly (readonly ReportCall[])[]): RenderReport {
  const report = createReportBuilder();
  for (const calls of lists) {
    for (const call of calls) {
      if (call[0] === 'count') report.count(call[1], call[2]);
      else if (call[0] === 'as_is') report.asIs(call[1], call[2]);
      else report.drop(call[1], call[2], call[3]);
    }
  }
  return report.build();
}
