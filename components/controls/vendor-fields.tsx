'use client';

import { modelsOf } from '@/lib/protocol/models';
import { asVendor, needsBaseUrl, vendorDefaults, type Vendor } from '@/lib/protocol/vendors';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { EndpointDialog } from './endpoint-dialog';
import { Field, INPUT } from './field';
import { VendorOptions } from './vendor-options';
import { CassetteFields, replayPatch } from './cassette-fields';
import { useCassettes } from '@/lib/client/api/cassettes';

/** The vendor select's value for "Recorded (cassette)": not a vendor, a replay of one. */
const RECORDED = 'cassette';

function modelsFor(vendor: Vendor) {
  // An OpenAI-compatible server can serve anything: a free field (DeepSeek's models are priced).
  return needsBaseUrl(vendor) ? [] : modelsOf(vendor);
}

/** Vendor, model, base URL and the key. The key is held in memory and sent with one run only. */
export function VendorFields({
  form,
  onChange,
  disabled = false,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  disabled?: boolean;
}) {
  const models = modelsFor(form.vendor);
  const cassettes = useCassettes().data?.cassettes ?? [];
  return (
    <>
      <Field
        label="vendor"
        hint={
          disabled
            ? 'what the run started on; to change vendor during the run, use "Swap to…" below'
            : undefined
        }
      >
        <select
          data-testid="vendor-select"
          disabled={disabled}
          className={INPUT}
          value={form.replay ? RECORDED : form.vendor}
          onChange={(e) => {
            if (e.target.value === RECORDED) {
              const first = cassettes[0];
              if (first) onChange(replayPatch(first, 'stop'));
              return;
            }
            const vendor = asVendor(e.target.value);
            if (vendor) onChange({ vendor, model: vendorDefaults(vendor).model, replay: null });
          }}
        >
          <VendorOptions />
          <option value={RECORDED} disabled={cassettes.length === 0}>
            Recorded (cassette)
          </option>
        </select>
      </Field>
      <CassetteFields form={form} onChange={onChange} />
      {form.replay ? null : (
        <>
          <Field label="model" hint={`fallback: ${vendorDefaults(form.vendor).fallback}`}>
            {models.length > 0 ? (
              <select
                data-testid="model-select"
                disabled={disabled}
                className={INPUT}
                value={form.model}
                onChange={(e) => onChange({ model: e.target.value })}
              >
                {!models.some((m) => m.id === form.model) && <option value={form.model}>{form.model}</option>}
                {models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label} · {Math.round(m.contextWindow / 1000)}k ctx
                  </option>
                ))}
              </select>
            ) : (
              <input
                data-testid="model-input"
                disabled={disabled}
                className={INPUT}
                value={form.model}
                onChange={(e) => onChange({ model: e.target.value })}
              />
            )}
          </Field>
          {needsBaseUrl(form.vendor) && (
            <Field label="base URL" hint="e.g. https://api.deepseek.com/v1 or http://localhost:11434/v1">
              <input
                data-testid="base-url-input"
                className={INPUT}
                value={form.baseUrl}
                placeholder="https://…/v1"
                onChange={(e) => onChange({ baseUrl: e.target.value })}
              />
            </Field>
          )}
          <EndpointDialog form={form} onChange={onChange} disabled={disabled} />
        </>
      )}
    </>
  );
}
