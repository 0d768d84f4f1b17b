'use client';

import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { checkNumber, rangeWords, RUN_RULES, typedNumber } from '@/lib/client/forms/number-checks';
import { Field, INPUT } from './field';

/** Seed, clock and time scale. */
export function RunSettings({
  form,
  onChange,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
}) {
  const timeScaleError = checkNumber(form.timeScale, RUN_RULES.timeScale);
  return (
    <div className="grid grid-cols-3 items-start gap-2">
      <Field
        label="seed"
        testId="seed-input"
        range={rangeWords(RUN_RULES.seed)}
        error={checkNumber(form.seed, RUN_RULES.seed)}
      >
        <input
          data-testid="seed-input"
          type="number"
          min={RUN_RULES.seed.min}
          max={RUN_RULES.seed.max}
          step={1}
          className={INPUT}
          aria-invalid={checkNumber(form.seed, RUN_RULES.seed) !== undefined}
          value={Number.isNaN(form.seed) ? '' : form.seed}
          onChange={(e) => onChange({ seed: typedNumber(e.target.value) })}
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
      <Field
        label="time scale"
        testId="time-scale-input"
        range={rangeWords(RUN_RULES.timeScale)}
        error={timeScaleError}
      >
        <input
          data-testid="time-scale-input"
          type="number"
          step="any"
          min={RUN_RULES.timeScale.min}
          max={RUN_RULES.timeScale.max}
          // The virtual clock reads no time scale, but the server still holds it to its range: a wrong one stays editable.
          disabled={form.clock === 'virtual' && timeScaleError === undefined}
          title="wall time per unit of run time (real and paced clocks): 0.05 shows a 120 s wait in 6 s"
          className={INPUT}
          aria-invalid={timeScaleError !== undefined}
          value={Number.isNaN(form.timeScale) ? '' : form.timeScale}
          onChange={(e) => onChange({ timeScale: typedNumber(e.target.value) })}
        />
      </Field>
    </div>
  );
}
