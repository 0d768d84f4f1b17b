import { describe, expect, it } from 'vitest';
import { copyText } from './copy-text';

describe('copyText', () => {
  it('writes the text and says "Copied", with the button’s note when it has one', async () => {
    const written: string[] = [];
    const clipboard = { writeText: async (text: string) => void written.push(text) };
    expect(await copyText('a', clipboard)).toEqual({ ok: true, said: 'Copied' });
    expect(await copyText('b', clipboard, 'set the key in your shell')).toEqual({
      ok: true,
      said: 'Copied — set the key in your shell',
    });
    expect(written).toEqual(['a', 'b']);
  });

  it('says why nothing was copied: no clipboard access, or the browser’s refusal', async () => {
    expect(await copyText('a', undefined)).toEqual({
      ok: false,
      said: 'Not copied: this page has no clipboard access (it needs https or localhost)',
    });
    const refusing = {
      writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
    };
    expect(await copyText('a', refusing)).toEqual({
      ok: false,
      said: 'Not copied: Write permission denied.',
    });
  });
});
