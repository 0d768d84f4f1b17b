'use client';

import type { PresetId, RecoveryOverrides } from '@/lib/protocol';
import { resolveRecovery } from '@/lib/protocol/presets';
import { MODULE_TOOLS_DEFAULTS } from '@/lib/mechanisms/modules/about';
import {
  RECOVERY_GROUPS,
  readOverride,
  readValue,
  writeOverride,
  type RecoveryField,
} from '@/lib/client/forms/recovery-fields';
import type { ReactNode } from 'react';
import { useGroupOpen } from './open-groups';
import { RecoveryParam } from './recovery-param';

/** Recovery parameters grouped by mechanism; only fields that differ from the preset are sent. */
export function RecoveryParams({
  preset,
  overrides,
  onChange,
}: {
  preset: PresetId;
  overrides: RecoveryOverrides;
  onChange: (overrides: RecoveryOverrides) => void;
}) {
  // A module's fields that no preset sets show the value its engine applies when a config leaves them out.
  const resolved = resolveRecovery(preset);
  const defaults = { ...resolved, tools: { ...MODULE_TOOLS_DEFAULTS, ...resolved.tools } };
  return (
    <div className="flex flex-col gap-1">
      {RECOVERY_GROUPS.map((group) => {
        const changed = group.fields.filter((f) => readOverride(overrides, f) !== undefined).length;
        const on = isGroupOn(group.fields, (f) => readOverride(overrides, f) ?? readValue(defaults, f));
        return (
          <GroupDetails key={group.id} id={group.id}>
            <summary className="flex items-center gap-2 px-2 py-1 text-2xs">
              <span className="font-medium">{group.title}</span>
              <span className={on ? 'text-ok' : 'text-faint'}>{on ? 'on' : 'off'}</span>
              {changed > 0 && <span className="ml-auto text-takeover">{changed} changed</span>}
            </summary>
            <div className="flex flex-col gap-1.5 border-t border-line px-2 py-1.5">
              {group.fields.map((field) => (
                <RecoveryParam
                  key={field.path}
                  field={field}
                  defaultValue={readValue(defaults, field)}
                  override={readOverride(overrides, field)}
                  onChange={(v) => {
                    const same = v !== undefined && v === readValue(defaults, field);
                    onChange(writeOverride(overrides, field, same ? undefined : v));
                  }}
                />
              ))}
            </div>
          </GroupDetails>
        );
      })}
    </div>
  );
}

/** A collapsible group whose open state survives a Run (see OpenGroupsProvider). */
function GroupDetails({ id, children }: { id: string; children: ReactNode }) {
  const [open, setOpen] = useGroupOpen(`recovery:${id}`);
  return (
    <details
      className="rounded border border-line"
      data-testid={`recovery-group-${id}`}
      open={open}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setOpen(now);
      }}
    >
      {children}
    </details>
  );
}

/**
 * Whether a mechanism is in play: its `enabled` switch when it has one; else any of its
 * switches (the tool rules); else any count above zero (SDK retries).
 */
function isGroupOn(
  fields: readonly RecoveryField[],
  value: (field: RecoveryField) => string | number | boolean,
): boolean {
  const enabled = fields.find((f) => f.kind === 'bool' && f.key === 'enabled');
  if (enabled) return Boolean(value(enabled));
  const switches = fields.filter((f) => f.kind === 'bool');
  if (switches.length > 0) return switches.some((f) => Boolean(value(f)));
  return fields.some((f) => f.kind === 'int' && Number(value(f)) > 0);
}
