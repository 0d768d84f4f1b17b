import { PRESET_LABELS, type PresetId, type SweepGridInput, type SweepMechanism, type SweepVendor } from '@/lib/protocol';
import { faultPlanFor, FAULT_TOGGLES } from './fault-catalog';

/** What the sweep form holds: choices a person ticks, turned into a grid on submit. */
export interface SweepFormState {
  name: string;
  scenarios: string[];
  presets: PresetId[];
  mechanismsOff: SweepMechanism[];
  /** 'none' (no faults) and fault-catalog toggle ids: each is one fault plan. */
  faults: string[];
  vendors: SweepVendor[];
  seedFrom: number;
  seedTo: number;
}

export const INITIAL_SWEEP_FORM: SweepFormState = {
  name: '',
  scenarios: ['fix-failing-test'],
  presets: ['codesmith', 'naive'],
  mechanismsOff: [],
  faults: ['none', 'overloaded-x3'],
  vendors: ['sim-anthropic'],
  seedFrom: 1,
  seedTo: 20,
};

/** How many runs the form's grid makes (shown before starting). */
export function formRunCount(form: SweepFormState): number {
  const seeds = Math.max(0, form.seedTo - form.seedFrom + 1);
  return form.scenarios.length * form.presets.length * (1 + form.mechanismsOff.length) * form.faults.length * form.vendors.length * seeds;
}

/** The grid the form describes: each preset a configuration, each fault choice a fault plan. */
export function gridFromForm(form: SweepFormState): SweepGridInput {
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    scenarios: form.scenarios,
    configurations: form.presets.map((preset) => ({ id: preset, label: PRESET_LABELS[preset], preset })),
    mechanismsOff: form.mechanismsOff,
    faultPlans: form.faults.map((id) => {
      if (id === 'none') return { id: 'none', label: 'no faults', plan: { rules: [], tools: [] } };
      const toggle = FAULT_TOGGLES.find((t) => t.id === id);
      return { id, label: toggle?.label ?? id, plan: faultPlanFor([id]) };
    }),
    vendors: form.vendors,
    seeds: { from: form.seedFrom, to: form.seedTo },
  };
}
