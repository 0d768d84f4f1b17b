'use client';

import { useId } from 'react';
import {
  ENDPOINT_PRESETS,
  applyPreset,
  priceNote,
  suggestedModels,
  type EndpointDraft,
} from '@/lib/client/forms/endpoint-form';
import { Button } from '@/components/ui/button';
import { Field, INPUT } from './field';
import { needsBaseUrl } from '@/lib/protocol/vendors';

/**
 * Where a run on a real endpoint goes and with which key: the presets and base URL of an
 * OpenAI-compatible server, the model (known ones suggested, unknown ones marked unpriced),
 * and the key. Shared by the playground's key & endpoint dialog and the run page's Fork…,
 * so both ask the same way; the key is the caller's page-memory state, never a form's.
 */
export function EndpointFields({
  draft,
  onDraft,
  apiKey,
  onApiKey,
  testId = 'endpoint',
}: {
  draft: EndpointDraft;
  onDraft: (next: EndpointDraft) => void;
  apiKey: string;
  onApiKey: (key: string) => void;
  /** data-testid prefix: `${testId}-base-url`, `${testId}-model`, `${testId}-key`, `${testId}-preset-<id>`. */
  testId?: string;
}) {
  const listId = useId();
  const models = suggestedModels(draft.vendor);
  const note = priceNote(draft.model);
  return (
    <>
      {needsBaseUrl(draft.vendor) && (
        <>
          <div className="flex flex-wrap gap-1" aria-label="presets">
            {ENDPOINT_PRESETS.map((p) => (
              <Button
                key={p.id}
                data-testid={`${testId}-preset-${p.id}`}
                onClick={() => onDraft(applyPreset(draft, p))}
                title={p.baseUrl}
              >
                {p.label}
              </Button>
            ))}
          </div>
          <Field label="base URL" hint="a base URL typed here needs a key typed here">
            <input
              data-testid={`${testId}-base-url`}
              className={INPUT}
              value={draft.baseUrl}
              placeholder="https://…/v1"
              onChange={(e) => onDraft({ ...draft, baseUrl: e.target.value })}
            />
          </Field>
        </>
      )}
      <Field
        label="model"
        hint={
          note ? <span data-testid={`${testId}-price-note`}>{note}</span> : 'priced: the run shows its cost'
        }
      >
        <input
          data-testid={`${testId}-model`}
          className={INPUT}
          list={listId}
          value={draft.model}
          onChange={(e) => onDraft({ ...draft, model: e.target.value })}
        />
        <datalist id={listId}>
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </Field>
      <Field label="API key">
        <input
          data-testid={`${testId}-key`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          className={INPUT}
          value={apiKey}
          onChange={(e) => onApiKey(e.target.value)}
        />
      </Field>
    </>
  );
}
