import type { ConfigDiffRow } from '@/lib/protocol/http/compare';

/** The table's heading: "1 field differs", "14 fields differ". */
export function configHeading(differing: number): string {
  if (differing === 0) return 'Config: the same in every field';
  return `Config: ${differing} ${differing === 1 ? 'field differs' : 'fields differ'}`;
}

/** The fields the two configs differ in (recovery as resolved from preset and overrides). */
export function ConfigDiffTable({ rows }: { rows: ConfigDiffRow[] }) {
  return (
    <section className="rounded border border-line bg-panel" data-testid="compare-config">
      <h2 className="border-b border-line px-3 py-1.5 text-xs font-semibold">{configHeading(rows.length)}</h2>
      {rows.length > 0 && (
        <table className="w-full text-xs">
          <thead>
            <tr className="text-left text-2xs text-muted">
              <th className="px-3 py-1 font-normal">field</th>
              <th className="px-2 py-1 font-normal">A</th>
              <th className="px-2 py-1 font-normal">B</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={row.path}
                className="border-t border-line"
                data-testid="config-row"
                data-path={row.path}
              >
                <td className="break-all px-3 py-1 font-mono text-2xs">{row.path}</td>
                <td className="break-all px-2 py-1 font-mono text-2xs">
                  {row.a ?? <span className="text-faint">absent</span>}
                </td>
                <td className="break-all px-2 py-1 font-mono text-2xs">
                  {row.b ?? <span className="text-faint">absent</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
