'use client';

import { FAULT_GROUPS, FAULT_TOGGLES } from '@/lib/client/fault-catalog';

/** Fault toggles grouped by kind. While a run is live, a change is sent to it at once. */
export function FaultToggles({ enabled, live, onChange }: { enabled: readonly string[]; live: boolean; onChange: (ids: string[]) => void }) {
  return (
    <div className="flex flex-col gap-2">
      {live && <p className="text-2xs text-takeover">live: changes apply to the running run at its next request</p>}
      {FAULT_GROUPS.map((group) => (
        <div key={group} className="flex flex-col gap-0.5">
          <span className="text-2xs text-faint">{group}</span>
          {FAULT_TOGGLES.filter((t) => t.group === group).map((t) => {
            const on = enabled.includes(t.id);
            return (
              <label key={t.id} className="flex items-start gap-1.5 text-xs" title={t.meaning}>
                <input
                  type="checkbox"
                  data-testid={`fault-toggle-${t.id}`}
                  className="mt-0.5"
                  checked={on}
                  onChange={(e) => onChange(e.target.checked ? [...enabled, t.id] : enabled.filter((id) => id !== t.id))}
                />
                <span className="flex min-w-0 flex-col">
                  <span className={on ? (group === 'Tool faults' ? 'text-fail' : 'text-wait') : ''}>{t.label}</span>
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
