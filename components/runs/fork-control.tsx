'use client';

import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import type { Vendor } from '@/lib/protocol';
import { VendorSchema } from '@/lib/protocol/config';
import { modelsOf } from '@/lib/protocol/models';
import { needsBaseUrl } from '@/lib/protocol/vendors';
import { ApiError } from '@/lib/client/api/client';
import { endpointVendors, type EndpointVendor } from '@/lib/client/forms/endpoint-form';
import { forkTarget } from '@/lib/client/forms/fork-target';
import { forkableTurns } from '@/lib/client/run-view/fork-turns';
import { useForkRun } from '@/lib/client/api/runs';
import { useRunStore } from '@/lib/client/run-view/run-store-provider';
import { usePopover } from '@/lib/client/hooks/use-popover';
import { Button } from '@/components/ui/button';
import { EndpointFields } from '@/components/controls/endpoint-fields';
import { Field, INPUT } from '@/components/controls/field';
import { VendorOptions } from '@/components/controls/vendor-options';

const isEndpointVendor = (v: Vendor): v is EndpointVendor => endpointVendors().includes(v);

/**
 * "Fork…": a new run from this run's trajectory up to a chosen turn, continuing live on the
 * vendor and model picked here (the parent's config otherwise, seed included). A real endpoint
 * (an OpenAI-compatible server by base URL too) is asked for with the key & endpoint dialog's
 * own fields, under the same key rule — also when "same as that turn" lands on one, since keys
 * are never stored; the parent's base URL (not a secret) is filled in. On another vendor its
 * first request is a takeover, shown in the child's takeover panel.
 */
export function ForkControl({ runId }: { runId: string }) {
  const router = useRouter();
  const turns = useRunStore((s) => s.view.turns);
  const terminate = useRunStore((s) => s.view.terminate);
  const config = useRunStore((s) => s.view.config);
  const offered = useMemo(() => forkableTurns({ turns, terminate }), [turns, terminate]);
  const { open, toggle, triggerRef, panelRef, onPanelKeyDown } = usePopover();
  const [turn, setTurn] = useState<number | undefined>(undefined);
  const [vendor, setVendor] = useState<Vendor | undefined>(undefined);
  /** Typed by the person; undefined: what the target resolves to. */
  const [model, setModel] = useState<string | undefined>(undefined);
  const [baseUrl, setBaseUrl] = useState<string | undefined>(undefined);
  /** Page memory only, sent with the one fork request. */
  const [apiKey, setApiKey] = useState('');
  const fork = useForkRun();
  const chosenTurn = turn ?? offered.at(-1);
  const target = forkTarget({ turns, atTurn: chosenTurn, config, chosen: vendor });
  const chosenModel = model ?? target.model;
  const chosenBaseUrl = baseUrl ?? target.baseUrl;
  const models = target.vendor ? modelsOf(target.vendor) : [];
  const error = fork.error instanceof ApiError ? fork.error : undefined;
  const submit = () => {
    if (chosenTurn === undefined) return;
    fork.mutate(
      {
        fork: {
          runId,
          atTurn: chosenTurn,
          ...(vendor ? { provider: vendor } : {}),
          ...(chosenModel.trim() ? { model: chosenModel.trim() } : {}),
          ...(target.vendor !== undefined && needsBaseUrl(target.vendor) && chosenBaseUrl.trim()
            ? { baseUrl: chosenBaseUrl.trim() }
            : {}),
        },
        ...(apiKey.trim() && target.needsKey ? { apiKey: apiKey.trim() } : {}),
      },
      { onSuccess: ({ id }) => router.push(`/runs/${encodeURIComponent(id)}`) },
    );
  };

  return (
    <div className="relative">
      <Button
        ref={triggerRef}
        data-testid="fork-open"
        onClick={toggle}
        aria-expanded={open}
        aria-haspopup="dialog"
        disabled={offered.length === 0}
        title={
          offered.length === 0
            ? 'no turn ended with tool results to continue from (yet)'
            : 'fork this run at a turn, onto a vendor and model'
        }
      >
        Fork…
      </Button>
      {open && (
        <div
          className="absolute top-full right-0 z-30 mt-1 flex w-80 flex-col gap-2 rounded border border-line bg-panel p-3 text-xs shadow-lg"
          data-testid="fork-dialog"
          role="dialog"
          aria-label="fork this run"
          ref={panelRef}
          onKeyDown={onPanelKeyDown}
        >
          <p className="text-2xs text-muted">
            A new run starts from this run&apos;s trajectory up to and including the turn (its messages, tool
            calls and results, and the files those edits left), then continues live on the vendor and model
            below, with this run&apos;s config and seed.
          </p>
          <Field label="after turn">
            <select
              data-testid="fork-turn-select"
              className={INPUT}
              value={chosenTurn ?? ''}
              onChange={(e) => setTurn(Number(e.target.value))}
            >
              {offered.map((t) => (
                <option key={t} value={t}>
                  turn {t}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="continue on"
            hint={
              vendor
                ? undefined
                : target.vendor
                  ? `the vendor and model that answered that turn: ${target.vendor} ${target.model}`
                  : "that turn's vendor cannot run here: choose one"
            }
          >
            <select
              data-testid="fork-vendor-select"
              className={INPUT}
              value={vendor ?? ''}
              onChange={(e) => {
                const next = VendorSchema.safeParse(e.target.value);
                setVendor(next.success ? next.data : undefined);
                setModel(undefined);
                setBaseUrl(undefined);
              }}
            >
              <option value="">same as that turn</option>
              <VendorOptions />
            </select>
          </Field>
          {target.vendor && isEndpointVendor(target.vendor) && (
            <>
              <EndpointFields
                testId="fork"
                draft={{ vendor: target.vendor, model: chosenModel, baseUrl: chosenBaseUrl }}
                onDraft={(d) => {
                  setVendor(d.vendor);
                  setModel(d.model);
                  setBaseUrl(d.baseUrl);
                }}
                apiKey={apiKey}
                onApiKey={setApiKey}
              />
              <p className="text-2xs text-faint">
                The key goes with this one request and is held in server memory for the new run only; never
                stored. Empty: the server&apos;s environment key, which only goes to the vendor&apos;s own
                endpoint or an address the server names.
              </p>
            </>
          )}
          {vendor && !isEndpointVendor(vendor) && (
            <Field label="model">
              <select
                data-testid="fork-model-select"
                className={INPUT}
                value={chosenModel}
                onChange={(e) => setModel(e.target.value)}
              >
                {models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.label}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {error && (
            <div
              className="rounded border border-fail/40 bg-fail-soft px-2 py-1 text-2xs text-fail"
              data-testid="fork-error"
              role="alert"
            >
              {error.message}
              {error.details.map((d) => (
                <div key={d}>{d}</div>
              ))}
            </div>
          )}
          <Button
            variant="primary"
            data-testid="fork-submit"
            disabled={fork.isPending || chosenTurn === undefined}
            onClick={submit}
          >
            {fork.isPending ? 'Forking…' : `Fork at turn ${chosenTurn ?? '…'}`}
          </Button>
        </div>
      )}
    </div>
  );
}
