'use client';

import { useRef, useState } from 'react';
import {
  endpointVendors,
  draftFor,
  endpointPatch,
  type EndpointDraft,
  type EndpointVendor,
} from '@/lib/client/forms/endpoint-form';
import { useEndpointKey } from '@/lib/client/forms/endpoint-key';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import { vendorLabel } from '@/lib/protocol/vendors';
import { Button } from '@/components/ui/button';
import { EndpointFields } from './endpoint-fields';
import { Field, INPUT } from './field';

const isEndpointVendor = (v: string): v is EndpointVendor => endpointVendors().includes(v);

/**
 * "Key & endpoint…": run on a real vendor — Anthropic, OpenAI, or any OpenAI-compatible server
 * by base URL (Ollama, vLLM, llama.cpp server, DeepSeek). The key stays in this page's memory;
 * it goes with the next run request only and the server holds it for that run only. Whether a
 * key may go to an address is the server's rule (resolveClientConfig); its 400 shows under Run.
 */
export function EndpointDialog({
  form,
  onChange,
  disabled,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
  disabled: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [key, setKey] = useEndpointKey();
  const [draft, setDraft] = useState<EndpointDraft>(() => draftFor('anthropic'));
  const [draftKey, setDraftKey] = useState('');

  const open = () => {
    setDraft(
      isEndpointVendor(form.vendor)
        ? { vendor: form.vendor, baseUrl: form.baseUrl, model: form.model }
        : draftFor('anthropic'),
    );
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
      <dialog
        ref={dialog}
        data-testid="endpoint-dialog"
        aria-label="key and endpoint"
        className="m-auto w-96 max-w-[92vw] rounded border border-line bg-panel p-4 text-xs text-fg backdrop:bg-black/40"
      >
        <form
          method="dialog"
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            use();
          }}
        >
          <h2 className="text-sm font-semibold">Run on a real endpoint</h2>
          <p className="text-2xs text-muted" data-testid="endpoint-key-promise">
            The key is sent with the one run request and held in server memory for that run only. It is never
            stored, never in the trace, never in the page address or this browser&apos;s storage. Left empty,
            the server&apos;s own environment key is used — and that key only ever goes to the vendor&apos;s
            official endpoint or an address the server names.
          </p>
          <Field label="vendor">
            <select
              data-testid="endpoint-vendor"
              className={INPUT}
              value={draft.vendor}
              onChange={(e) => isEndpointVendor(e.target.value) && setDraft(draftFor(e.target.value))}
            >
              {endpointVendors().map((v) => (
                <option key={v} value={v}>
                  {vendorLabel(v)}
                </option>
              ))}
            </select>
          </Field>
          <EndpointFields draft={draft} onDraft={setDraft} apiKey={draftKey} onApiKey={setDraftKey} />
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
