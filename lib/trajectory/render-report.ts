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
}

/** Collects report entries; conversions (and what went as it was) are counted so a long run does not repeat itself. */
export interface ReportBuilder {
  count(conversion: string): void;
  drop(kind: string, detail: string): void;
  /** Something a safeguard would have changed, sent as it was (naive, or that safeguard off). */
  asIs(what: string): void;
  build(): RenderReport;
}

export function createReportBuilder(): ReportBuilder {
  const counts = new Map<string, number>();
  const asIs = new Map<string, number>();
  const dropped: RenderReport['dropped'] = [];
  const counted = (m: Map<string, number>) => [...m].map(([what, n]) => `${n} × ${what}`);
  return {
    count(conversion) {
      counts.set(conversion, (counts.get(conversion) ?? 0) + 1);
    },
    drop(kind, detail) {
      dropped.push({ kind, detail });
    },
    asIs(what) {
      asIs.set(what, (asIs.get(what) ?? 0) + 1);
    },
    build() {
      return { converted: counted(counts), dropped: [...dropped], asIs: counted(asIs) };
    },
  };
}

/** One call a renderer made on a report, kept so a cached rendering can report it again. */
export type ReportCall =
  | readonly [kind: 'count', conversion: string]
  | readonly [kind: 'drop', dropKind: string, detail: string]
  | readonly [kind: 'as_is', what: string];

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

  count(conversion: string): void {
    this.calls.push(['count', conversion]);
  }

  drop(kind: string, detail: string): void {
    this.calls.push(['drop', kind, detail]);
  }

  asIs(what: string): void {
    this.calls.push(['as_is', what]);
  }
}

/** The report of a rendering from the calls its parts made, list after list, in order. */
export function reportFromCalls(lists: readonly (readonly ReportCall[])[]): RenderReport {
  const report = createReportBuilder();
  for (const calls of lists) {
    for (const call of calls) {
      if (call[0] === 'count') report.count(call[1]);
      else if (call[0] === 'as_is') report.asIs(call[1]);
      else report.drop(call[1], call[2]);
    }
  }
  return report.build();
}
