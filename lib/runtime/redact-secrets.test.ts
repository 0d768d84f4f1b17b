import { describe, expect, it } from 'vitest';
import type { RunEvent } from '@/lib/protocol';
import { createRedactor, REDACTED, runSecrets } from './redact-secrets';

const KEY = 'sk-ant-api03-Canary0123456789abcdefXYZ';

const terminate = (message: string): RunEvent => ({
  run_id: 'r1',
  seq: 4,
  ts: 1200,
  event: 'terminate',
  reason: 'retries_exhausted',
  complete: false,
  message,
  usd_so_far: 0,
  input_tokens: 0,
  output_tokens: 0,
});

describe('createRedactor', () => {
  it('removes a key in every form a vendor, proxy or SDK might echo it', () => {
    const redactor = createRedactor({ secrets: [KEY] });
    const basic = Buffer.from(`user:${KEY}`).toString('base64');
    const echoes = [
      `401 Incorrect API key provided: ${KEY}.`,
      `Authorization: Bearer ${KEY}`,
      `https://proxy.example/v1?key=${encodeURIComponent(KEY + '/+=')}`,
      `Authorization: Basic ${basic}`,
      `x-api-key ${Buffer.from(KEY).toString('base64url')}`,
      JSON.stringify({ error: { message: `bad key ${KEY}` } }),
    ];
    for (const echo of echoes) {
      const out = redactor.text(echo);
      expect(out).toContain(REDACTED);
      expect(out).not.toContain(KEY);
      expect(out).not.toContain('Canary0123456789');
      expect(out).not.toContain(Buffer.from(KEY).toString('base64').slice(4, 40));
    }
  });

  it('removes keys that JSON escapes (a backslash, a quote, a newline) from values, and from JSON text inside values', () => {
    const odd = 'sk-odd\\key"with\nnewline-0123456789';
    const redactor = createRedactor({ secrets: [odd] });
    const event = terminate(`vendor said: ${JSON.stringify({ message: `bad key ${odd}` })} and ${odd}`);
    const out = redactor.value(event);
    const json = JSON.stringify(out);
    expect(json).not.toContain(JSON.stringify(odd).slice(1, -1));
    expect((out as { message: string }).message).not.toContain(odd);
    expect(JSON.parse(json)).toEqual(out);
  });

  it("takes every key from the environment, not only the run's own", () => {
    const env = {
      ANTHROPIC_API_KEY: KEY,
      OPENAI_API_KEY: 'sk-proj-envcanary-9876543210',
      DEEPSEEK_API_KEY: 'dsk-Canary-111122223333',
      HOME: '/root',
    };
    const redactor = createRedactor({ secrets: runSecrets({ apiKey: 'sk-request-Canary-4444555566', env }) });
    const out = redactor.text(
      `${KEY} sk-proj-envcanary-9876543210 dsk-Canary-111122223333 sk-request-Canary-4444555566 /root`,
    );
    expect(out).toBe(`${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} /root`);
  });

  it('touches nothing else: property names, the event name and other text stay byte-identical', () => {
    const event = terminate(`see ${KEY}`);
    const out = createRedactor({ secrets: [KEY] }).value(event);
    expect(JSON.stringify(out)).toBe(JSON.stringify(event).replace(KEY, REDACTED));
    // A "key" that is a word of the log never rewrites the log.
    for (const word of ['terminate', 'retries_exhausted', 'internal_error', 'usd_so_far', 'x']) {
      const same = createRedactor({ secrets: [word] }).value(event);
      expect(same).toBe(event);
    }
    // The event discriminator and run id are never rewritten, whatever the key.
    const runId = { ...event, run_id: '0f8c2a4e-3b1d-4c7a-9e6f-1a2b3c4d5e6f' };
    expect(createRedactor({ secrets: [runId.run_id] }).value(runId).run_id).toBe(runId.run_id);
  });

  it('removes a key used as a property name, at any depth, keeping the order and both of two names that redact alike', () => {
    const other = 'sk-proj-second-Canary-0123456789';
    const event = {
      run_id: 'r',
      seq: 2,
      ts: 0,
      event: 'tool_call',
      args: { [KEY]: 'v1', nested: [{ [`x-${KEY}`]: 1, [other]: 2, keep: 3 }] },
    };
    const out = createRedactor({ secrets: [KEY, other] }).value(event);
    const json = JSON.stringify(out);
    expect(json).not.toContain(KEY);
    expect(json).not.toContain(other);
    expect(out.args).toEqual({
      [REDACTED]: 'v1',
      nested: [{ [`x-${REDACTED}`]: 1, [REDACTED]: 2, keep: 3 }],
    });
    const twice = createRedactor({ secrets: [KEY, other] }).value({
      a: { [KEY]: 1, [other]: 2, ['__proto__']: 3 },
    });
    expect(Object.keys(twice.a)).toEqual([REDACTED, `${REDACTED} (2)`, '__proto__']);
  });

  it('removes a hex-encoded echo, and each part of a key with a line break inside', () => {
    const redactor = createRedactor({ secrets: [KEY] });
    const hex = Buffer.from(KEY).toString('hex');
    expect(redactor.text(`dump ${hex} / ${hex.toUpperCase()}`)).toBe(`dump ${REDACTED} / ${REDACTED}`);
    const crlf = 'sk-canary-REQUEST-part-one\r\nsk-canary-part-two-0123';
    const parts = createRedactor({ secrets: runSecrets({ apiKey: crlf, env: {} }) });
    expect(parts.text('invalid header value sk-canary-REQUEST-part-one, then sk-canary-part-two-0123')).toBe(
      `invalid header value ${REDACTED}, then ${REDACTED}`,
    );
  });

  it('removes a key written backwards, and one split by characters a key never contains', () => {
    const redactor = createRedactor({ secrets: [KEY] });
    const backwards = [...KEY].reverse().join('');
    const every = (n: number, sep: string) => KEY.match(new RegExp(`.{1,${n}}`, 'g'))!.join(sep);
    const echoes = [
      `reversed: ${backwards}.`,
      `note: ${KEY.slice(0, 20)}|${KEY.slice(20)}`,
      `split: ${every(5, ' | ')} end`,
      `lines: ${every(7, '\n')}`,
      `escaped in a body: ${JSON.stringify(every(4, '\n\t'))}`,
      `${JSON.stringify([KEY.slice(0, 19), KEY.slice(19)]).slice(1, -1)}`,
      `both: ${[...every(6, '.')].reverse().join('')}`,
    ];
    for (const echo of echoes) {
      const out = redactor.text(echo);
      expect(out, echo).toContain(REDACTED);
      for (const piece of ['Canary0123', '456789abcdef', 'yranaC', 'fedcba'])
        expect(out, echo).not.toContain(piece);
    }
    expect(redactor.text(`note: ${KEY.slice(0, 20)}|${KEY.slice(20)}!`)).toBe(`note: ${REDACTED}!`);
    // A key's characters with a key character between them, or spread further apart, are ordinary text.
    const apart = KEY.slice(0, 20) + ' '.repeat(9) + KEY.slice(20);
    expect(redactor.text(apart)).toBe(apart);
    const joined = `${KEY.slice(0, 20)}x${KEY.slice(20)}`;
    expect(redactor.text(joined)).toBe(joined);
  });

  it('says where a text must be held: a tail that could begin the key, split or backwards', () => {
    const redactor = createRedactor({ secrets: [KEY] });
    const backwards = [...KEY].reverse().join('');
    expect(redactor.holdFrom(`done. ${KEY.slice(0, 6)} | ${KEY.slice(6, 12)}`)).toBe(6);
    expect(redactor.holdFrom(`done. ${backwards.slice(0, 9)}`)).toBe(6);
    expect(redactor.holdFrom(`done. ${KEY.slice(0, 6)} x`)).toBe(`done. ${KEY.slice(0, 6)} x`.length);
  });

  it('returns the very same object when there is nothing to redact', () => {
    const event = terminate('all fine');
    expect(createRedactor({ secrets: [KEY] }).value(event)).toBe(event);
    expect(createRedactor({ secrets: [] }).empty).toBe(true);
  });
});
