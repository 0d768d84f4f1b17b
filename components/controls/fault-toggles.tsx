'use client';

import { FAULT_GROUPS, FAULT_TOGGLES, TOOL_FAULT_TARGETS } from '@/lib/client/forms/fault-catalog';

/** Fault toggles grouped by kind. While a run is live, a change is sent to it at once. */
export function FaultToggles({
  enabled,
  live,
  onChange,
  toolTarget,
  onToolTargetChange,
}: {
  enabled: readonly string[];
  live: boolean;
  onChange: (ids: string[]) => void;
  toolTarget: string;
  onToolTargetChange: (tool: string) => void;
}) {
  return (
    <div className="flex flex-col gap-2">
      {live && (
        <p className="text-2xs text-takeover">live: changes apply to the running run at its next request</p>
      )}
      {FAULT_GROUPS.map((group) => (
        <div key={group} className="flex flex-col gap-0.5">
          <span className="flex items-center gap-1 text-2xs text-faint">
            {group}
            {group === 'Tool faults' && (
              <select
                data-testid="tool-fault-target"
                aria-label="which tool the tool faults hit"
                className="ml-auto rounded border border-line bg-panel px-1 font-mono text-2xs text-fg"
                value={toolTarget}
                onChange={(e) => onToolTargetChange(e.target.value)}
              >
                {TOOL_FAULT_TARGETS.map((t) => (
                  <option key={t} value={t}>
                    {t === '*' ? 'every tool' : t}
                  </option>
                ))}
              </select>
            )}
          </span>
          {FAULT_TOGGLES.filter((t) => t.group === group).map((t) => {
            const on = enabled.includes(t.id);
            return (
              <label key={t.id} className="flex items-start gap-1.5 text-xs" title={t.meaning}>
                <input
                  type="checkbox"
                  data-testid={`fault-toggle-${t.id}`}
                  className="mt-0.5"
                  checked={on}
                  onChange={(e) =>
                    onChange(e.target.checked ? [...enabled, t.id] : enabled.filter((id) => id !== t.id))
                  }
                />
                <span className="flex min-w-0 flex-col">
                  <span className={on ? (group === 'Tool faults' ? 'text-fail' : 'text-wait') : ''}>
                    {group === 'Tool faults' && toolTarget !== '*'
                      ? t.label.replace(/^tools/, toolTarget)
                      : t.label}
                  </span>
                  <span className="truncate text-[10px] leading-3 text-faint">{t.meaning}</span>
                </span>
              </label>
            );
          })}
        </div>
      ))}
    </div>
  );
}
