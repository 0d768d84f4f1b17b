'use client';

import { useCassettes } from '@/lib/client/api/cassettes';
import { recordedSettings, replayPatch } from '@/lib/client/forms/cassette-form';
import type { PlaygroundForm } from '@/lib/client/forms/playground-form';
import type { CassetteSummary } from '@/lib/protocol/http';
import { Field, INPUT } from './field';

export { replayPatch };

/** Under the chosen cassette: what was filled in from its recorded config and what has changed since, or what it cannot tell. */
function RecordedSettingsNote({ form, cassette }: { form: PlaygroundForm; cassette: CassetteSummary }) {
  const settings = recordedSettings(form, cassette);
  if (settings.kind === 'missing') {
    return (
      <p data-testid="cassette-settings" data-kept="false" className="text-2xs text-wait">
        Not filled in: {settings.text}.
      </p>
    );
  }
  return (
    <p data-testid="cassette-settings" data-kept="true" className="text-2xs text-muted">
      Filled in from the recording: {settings.filled}.
      {settings.dropped.length > 0 && <span> Not representable here: {settings.dropped.join(', ')}.</span>}
      {settings.changed.length > 0 && (
        <span data-testid="cassette-settings-changed" className="text-wait">
          {' '}
          Changed since: {settings.changed.join(', ')} — the requests will differ from the recorded ones, and
          the replay leaves the recording there.
        </span>
      )}
    </p>
  );
}

/**
 * The "Recorded (cassette)" vendor's fields: which cassette, and what the run does when the loop
 * asks for something the recording does not hold — said here in words, as the run will do it.
 */
export function CassetteFields({
  form,
  onChange,
}: {
  form: PlaygroundForm;
  onChange: (patch: Partial<PlaygroundForm>) => void;
}) {
  const { data } = useCassettes();
  const replay = form.replay;
  if (!replay) return null;
  const cassettes = data?.cassettes ?? [];
  const chosen = cassettes.find((c) => c.id === replay.cassette);
  return (
    <>
      <Field
        label="cassette"
        hint={
          chosen
            ? `${chosen.source.note} · ${chosen.exchanges} exchanges`
            : 'the recording this run is served from'
        }
      >
        <select
          data-testid="cassette-select"
          className={INPUT}
          value={replay.cassette}
          onChange={(e) => {
            const next = cassettes.find((c) => c.id === e.target.value);
            if (next) onChange(replayPatch(next, replay.offRecording));
          }}
        >
          {!chosen && <option value={replay.cassette}>{replay.cassette}</option>}
          {cassettes.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.source.kind === 'simulated' ? 'simulated' : 'real'} {c.source.vendor})
            </option>
          ))}
        </select>
      </Field>
      {chosen && <RecordedSettingsNote form={form} cassette={chosen} />}
      <Field label="off the recording">
        <select
          data-testid="off-recording-select"
          className={INPUT}
          value={replay.offRecording}
          onChange={(e) =>
            onChange({
              replay: { ...replay, offRecording: e.target.value === 'simulate' ? 'simulate' : 'stop' },
            })
          }
        >
          <option value="stop">stop the run</option>
          <option value="simulate">go on on the simulated model</option>
        </select>
      </Field>
      <p data-testid="replay-note" className="text-2xs text-muted">
        Served from the recording through the {form.vendor} SDK, at the recorded pace (instantly on the
        virtual clock), with the faults below on top. When the loop asks for something the recording does not
        hold, the run says where and what differs, then{' '}
        {replay.offRecording === 'stop'
          ? 'stops'
          : 'goes on on the simulated model, which does not read the prompt'}
        .
      </p>
    </>
  );
}
