/**
 * What rendering did to a trajectory for one vendor. A swap event shows it verbatim, so
 * entries are sentences a person reads, not codes.
 */
export interface RenderReport {
  converted: string[];
  dropped: { kind: string; detail: string }[];
}

/** Collects report entries; conversions are counted so a long run does not repeat itself. */
export interface ReportBuilder {
  count(conversion: string): void;
  drop(kind: string, detail: string): void;
  build(): RenderReport;
}

export function createReportBuilder(): ReportBuilder {
  const counts = new Map<string, number>();
  const dropped: RenderReport['dropped'] = [];
  return {
    count(conversion) {
      counts.set(conversion, (counts.get(conversion) ?? 0) + 1);
    },
    drop(kind, detail) {
      dropped.push({ kind, detail });
    },
    build() {
      const converted = [...counts].map(([what, n]) => `${n} × ${what}`);
      return { converted, dropped: [...dropped] };
    },
  };
}
