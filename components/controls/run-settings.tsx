'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { Field, INPUT } from './field';

/** Seed, clock and time scale. */
export function RunSettings({
  form,
  onChange,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
}) {
  return (
    <div className="grid grid-cols-3 gap-2">
      <Field label="seed">
        <input
          data-testid="seed-input"
          type="number"
          min={0}
          className={INPUT}
          value={form.seed}
          onChange={(e) => onChange({ seed: Math.max(0, Math.floor(Number(e.target.value) || 0)) })}
        />
      </Field>
      <Field label="clock">
        <select
          data-testid="clock-select"
          className={INPUT}
          value={form.clock}
          onChange={(e) =>
            onChange({
              clock: e.target.value === 'virtual' || e.target.value === 'paced' ? e.target.value : 'real',
            })
          }
          title="real: wall time at the time scale; virtual: jumps straight to each deadline; paced: the virtual run, each jump waiting for wall time at the time scale (simulated vendors and replays)"
        >
          <option value="real">real</option>
          <option value="virtual">virtual</option>
          <option value="paced">paced</option>
        </select>
      </Field>
      <Field label="time scale">
        <input
          data-testid="time-scale-input"
          type="number"
          step="any"
          min={0.001}
          max={10}
          disabled={form.clock === 'virtual'}
          title="wall time per unit of run time (real and paced clocks): 0.05 shows a 120 s wait in 6 s"
          className={INPUT}
          value={form.timeScale}
          onChange={(e) => onChange({ timeScale: Number(e.target.value) })}
        />
      </Field>
    </div>
  );
}
