'use client';

import { useState } from 'react';
import type { PresetId, RecoveryOverrides } from '@/lib/protocol';
import { resolveRecovery } from '@/lib/protocol/presets';
import { presetPolicy } from '@/lib/protocol/preset-policies';
import { INPUT } from './field';

/**
 * The advanced retry-policy editor: the configuration's policy as JSON (its own, or the one its
 * preset and overrides describe), applied as `recovery.policy`, which replaces the preset's whole.
 * The table above renders whatever is applied.
 */
export function PolicyEditor({
  preset,
  overrides,
  onChange,
}: {
  preset: PresetId;
  overrides: RecoveryOverrides;
  onChange: (overrides: RecoveryOverrides) => void;
}) {
  const shown = overrides.policy ?? presetPolicy(resolveRecovery(preset, overrides));
  const [text, setText] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const { policy: _own, ...withoutPolicy } = overrides;
  return (
    <details className="rounded border border-line text-2xs" data-testid="policy-editor">
      <summary className="px-2 py-1 font-medium">
        retry policy (advanced){overrides.policy ? ' · own policy' : ''}
      </summary>
      <div className="flex flex-col gap-1 border-t border-line px-2 py-1.5">
        <textarea
          data-testid="policy-text"
          className={`${INPUT} h-48 font-mono`}
          spellCheck={false}
          value={text ?? JSON.stringify(shown, null, 2)}
          onChange={(e) => setText(e.target.value)}
        />
        {error && (
          <p className="text-fail" role="alert">
            {error}
          </p>
        )}
        <div className="flex gap-2">
          <button
            type="button"
            className="underline"
            data-testid="policy-apply"
            onClick={async () => {
              // The schema (and zod with it) loads when a policy is applied, not with the page.
              const { parsePolicyText } = await import('@/lib/client/forms/policy-text');
              const parsed = parsePolicyText(text ?? JSON.stringify(shown));
              setError(parsed.error);
              if (parsed.error) return;
              onChange(parsed.policy ? { ...withoutPolicy, policy: parsed.policy } : withoutPolicy);
              setText(undefined);
            }}
          >
            apply
          </button>
          <button
            type="button"
            className="underline"
            data-testid="policy-reset"
            onClick={() => {
              setError(undefined);
              setText(undefined);
              onChange(withoutPolicy);
            }}
          >
            use the preset’s
          </button>
        </div>
      </div>
    </details>
  );
}
