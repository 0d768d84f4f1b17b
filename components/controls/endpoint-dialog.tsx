'use client';

import { useRef, useState } from 'react';
import {
  ENDPOINT_PRESETS,
  ENDPOINT_VENDORS,
  applyPreset,
  draftFor,
  endpointPatch,
  priceNote,
  suggestedModels,
  type EndpointDraft,
  type EndpointVendor,
} from '@/lib/client/endpoint-form';
import { useEndpointKey } from '@/lib/client/endpoint-key';
import { VENDOR_LABELS, type PlaygroundForm } from '@/lib/client/playground-form';
import { Button } from '@/components/ui/button';
import { Field, INPUT } from './field';

const isEndpointVendor = (v: string): v is EndpointVendor => (ENDPOINT_VENDORS as readonly string[]).includes(v);

/**
 * "Key & endpoint…": run on a real vendor — Anthropic, OpenAI, or any OpenAI-compatible server
 * by base URL (Ollama, vLLM, llama.cpp server, DeepSeek). The key stays in this page's memory;
 * it goes with the next run request only and the server holds it for that run only. Whether a
 * key may go to an address is the server's rule (resolveClientConfig); its 400 shows under Run.
 */
export function EndpointDialog({ form, onChange, disabled }: { form: PlaygroundForm; onChange: (patch: Partial<PlaygroundForm>) => void; disabled: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [key, setKey] = useEndpointKey();
  const [draft, setDraft] = useState<EndpointDraft>(() => draftFor('anthropic'));
  const [draftKey, setDraftKey] = useState('');
  const models = suggestedModels(draft.vendor);
  const note = priceNote(draft.model);

  const open = () => {
    setDraft(isEndpointVendor(form.vendor) ? { vendor: form.vendor, baseUrl: form.baseUrl, model: form.model } : draftFor('anthropic'));
    setDraftKey(key);
    dialog.current?.showModal();
  };
  const use = () => {
    onChange(endpointPatch(draft));
    setKey(draftKey.trim());
    dialog.current?.close();
  };

  return (
    <>
      <div className="flex items-center gap-2">
        <Button data-testid="endpoint-open" onClick={open} disabled={disabled}>
          Key &amp; endpoint…
        </Button>
        <span className="text-2xs text-faint" data-testid="endpoint-key-state">
          {key ? 'key: held in this page for the next run' : "key: the server's environment"}
        </span>
      </div>
      <dialog ref={dialog} data-testid="endpoint-dialog" aria-label="key and endpoint" className="m-auto w-96 max-w-[92vw] rounded border border-line bg-panel p-4 text-xs text-fg backdrop:bg-black/40">
        <form method="dialog" className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); use(); }}>
          <h2 className="text-sm font-semibold">Run on a real endpoint</h2>
          <p className="text-2xs text-muted" data-testid="endpoint-key-promise">
            The key is sent with the one run request and held in server memory for that run only. It is never stored, never in the
            trace, never in the page address or this browser&apos;s storage. Left empty, the server&apos;s own environment key is used —
            and that key only ever goes to the vendor&apos;s official endpoint or an address the server names.
          </p>
          <Field label="vendor">
            <select
              data-testid="endpoint-vendor"
              className={INPUT}
              value={draft.vendor}
              onChange={(e) => isEndpointVendor(e.target.value) && setDraft(draftFor(e.target.value))}
            >
              {ENDPOINT_VENDORS.map((v) => (
                <option key={v} value={v}>
                  {VENDOR_LABELS[v]}
                </option>
              ))}
            </select>
          </Field>
          {draft.vendor === 'openai-compatible' && (
            <>
              <div className="flex flex-wrap gap-1" aria-label="presets">
                {ENDPOINT_PRESETS.map((p) => (
                  <Button key={p.id} data-testid={`endpoint-preset-${p.id}`} onClick={() => setDraft((d) => applyPreset(d, p))} title={p.baseUrl}>
                    {p.label}
                  </Button>
                ))}
              </div>
              <Field label="base URL" hint="a base URL typed here needs a key typed here">
                <input data-testid="endpoint-base-url" className={INPUT} value={draft.baseUrl} placeholder="https://…/v1" onChange={(e) => setDraft((d) => ({ ...d, baseUrl: e.target.value }))} />
              </Field>
            </>
          )}
          <Field label="model" hint={note ? <span data-testid="endpoint-price-note">{note}</span> : 'priced: the run shows its cost'}>
            <input data-testid="endpoint-model" className={INPUT} list="endpoint-models" value={draft.model} onChange={(e) => setDraft((d) => ({ ...d, model: e.target.value }))} />
            <datalist id="endpoint-models">
              {models.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </Field>
          <Field label="API key">
            <input data-testid="endpoint-key" type="password" autoComplete="off" spellCheck={false} className={INPUT} value={draftKey} onChange={(e) => setDraftKey(e.target.value)} />
          </Field>
          <div className="flex justify-end gap-2">
            <Button onClick={() => dialog.current?.close()}>Cancel</Button>
            <Button variant="primary" type="submit" data-testid="endpoint-use">
              Use for the next run
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
