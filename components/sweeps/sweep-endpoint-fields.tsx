'use client';

import type { SweepEndpointForm } from '@/lib/client/forms/sweep-form';
import { endpointVendors } from '@/lib/client/forms/endpoint-form';
import { INPUT } from '@/components/controls/field';

/**
 * A real endpoint as a sweep target: its vendor, address, key and limits. The key is sent
 * with the sweep and held in the server's memory for it only (never in the sweep's row, a run,
 * an event or the address bar); empty, the server's environment key is used.
 */
export function SweepEndpointFields({
  value,
  onChange,
}: {
  value: SweepEndpointForm;
  onChange: (next: SweepEndpointForm) => void;
}) {
  const set =
    <K extends keyof SweepEndpointForm>(key: K) =>
    (v: SweepEndpointForm[K]) =>
      onChange({ ...value, [key]: v });
  return (
    <fieldset className="flex flex-col gap-1.5" data-testid="sweep-endpoint">
      <legend className="mb-1 text-2xs font-medium text-muted">Real endpoint</legend>
      <label className="flex items-center gap-1 text-xs">
        <input
          type="checkbox"
          checked={value.enabled}
          onChange={(e) => set('enabled')(e.target.checked)}
          data-testid="sweep-endpoint-on"
        />
        also run on a real endpoint (real requests, real cost: every exchange is saved as a cassette, so a
        rerun can replay it for free)
      </label>
      {value.enabled && (
        <div className="flex flex-wrap items-end gap-2">
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">Vendor</span>
            <select
              className={INPUT}
              value={value.vendor}
              onChange={(e) => set('vendor')(e.target.value as SweepEndpointForm['vendor'])}
            >
              {endpointVendors().map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">Base URL (empty: the server’s)</span>
            <input
              className={`${INPUT} w-64`}
              value={value.baseUrl}
              onChange={(e) => set('baseUrl')(e.target.value)}
              placeholder="http://localhost:11434/v1"
            />
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">
              Key (this sweep only; empty: the server’s)
            </span>
            <input
              type="password"
              autoComplete="off"
              className={`${INPUT} w-48`}
              value={value.apiKey}
              onChange={(e) => set('apiKey')(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">Requests / min</span>
            <input
              type="number"
              min={1}
              className={`${INPUT} w-24`}
              value={value.requestsPerMin}
              onChange={(e) => set('requestsPerMin')(e.target.value)}
            />
          </label>
          <label className="flex flex-col gap-0.5">
            <span className="text-2xs font-medium text-muted">Tokens / min</span>
            <input
              type="number"
              min={1}
              className={`${INPUT} w-28`}
              value={value.tokensPerMin}
              onChange={(e) => set('tokensPerMin')(e.target.value)}
            />
          </label>
        </div>
      )}
    </fieldset>
  );
}
