'use client';

import { useState } from 'react';
import { modelsOf } from '@/lib/protocol/models';
import { asVendor, isSimulated, needsBaseUrl, vendorDefaults, type Vendor } from '@/lib/protocol/vendors';
import { Button } from '@/components/ui/button';
import { isCurrentTarget } from '@/lib/client/forms/swap-target';
import { Field, INPUT } from './field';
import { VendorOptions } from './vendor-options';
import { SwapSuggestions } from './swap-suggestions';

export interface SwapTargetInput {
  vendor: Vendor;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  /** Only when asked for: a naive handover (the history as it was), to meet the vendor's refusal. */
  takeover?: { foreignThinking: 'drop' | 'note'; naive: boolean };
}

/**
 * "Swap to…": live while a run is going. The run continues on the chosen vendor and model
 * from its next request; a key typed here goes with this one swap request and is held in
 * server memory for this run only.
 */
export function SwapControl({
  runId,
  current,
  onSwap,
  pending,
}: {
  runId?: string;
  current?: string;
  onSwap: (target: SwapTargetInput) => void;
  pending: boolean;
}) {
  const [vendor, setVendor] = useState<Vendor>('sim-openai');
  const [naive, setNaive] = useState(false);
  const [model, setModel] = useState(vendorDefaults('sim-openai').model);
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const models = modelsOf(vendor);
  const same = isCurrentTarget(current, vendor, model);
  return (
    <div
      className="flex flex-col gap-1 rounded border border-takeover/40 bg-takeover-soft/40 p-2"
      data-testid="swap-control"
    >
      <p className="text-2xs text-muted">
        The run is on <span className="font-mono text-takeover">{current ?? '…'}</span>. Swap to another
        vendor or model: it takes over from the next request, and the takeover panel shows what travelled.
      </p>
      <SwapSuggestions
        runId={runId}
        onPick={(target) => {
          setVendor(target.vendor);
          setModel(target.model);
          setNaive(target.naive);
        }}
      />
      <Field label="swap to vendor">
        <select
          data-testid="swap-vendor-select"
          className={INPUT}
          value={vendor}
          onChange={(e) => {
            const next = asVendor(e.target.value);
            if (!next) return;
            setVendor(next);
            setModel(vendorDefaults(next).model);
          }}
        >
          <VendorOptions />
        </select>
      </Field>
      <Field label="model">
        {models.length > 0 && !needsBaseUrl(vendor) ? (
          <select
            data-testid="swap-model-select"
            className={INPUT}
            value={model}
            onChange={(e) => setModel(e.target.value)}
          >
            {models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            data-testid="swap-model-input"
            className={INPUT}
            value={model}
            onChange={(e) => setModel(e.target.value)}
          />
        )}
      </Field>
      {needsBaseUrl(vendor) && (
        <Field label="base URL">
          <input
            className={INPUT}
            value={baseUrl}
            placeholder="https://…/v1"
            onChange={(e) => setBaseUrl(e.target.value)}
          />
        </Field>
      )}
      {!isSimulated(vendor) && (
        <Field
          label="API key"
          hint="sent with this swap only; held in server memory for this run only, never stored. Empty: the server's environment key."
        >
          <input
            type="password"
            autoComplete="off"
            className={INPUT}
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
          />
        </Field>
      )}
      <label className="flex items-start gap-2 text-2xs text-muted">
        <input
          type="checkbox"
          data-testid="swap-naive-toggle"
          checked={naive}
          onChange={(e) => setNaive(e.target.checked)}
        />
        <span>
          naive handover for this swap: the history as it was, credentials included (to meet the vendor&apos;s
          refusal)
        </span>
      </label>
      <Button
        variant="primary"
        data-testid="swap-button"
        disabled={pending || same}
        title={same ? 'this vendor and model already answer the run: pick another to swap to' : undefined}
        onClick={() =>
          onSwap({
            vendor,
            model: model.trim(),
            ...(baseUrl.trim() && needsBaseUrl(vendor) ? { baseUrl: baseUrl.trim() } : {}),
            ...(apiKey.trim() && !isSimulated(vendor) ? { apiKey: apiKey.trim() } : {}),
            ...(naive ? { takeover: { foreignThinking: 'drop', naive: true } } : {}),
          })
        }
      >
        {same ? `Already on ${vendor}` : `Swap to ${vendor}`}
      </Button>
    </div>
  );
}
