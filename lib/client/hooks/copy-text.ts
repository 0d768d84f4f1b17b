/** What a copy button says after a click: the copy went through, or why it did not. */
export type CopyOutcome = { ok: true; said: string } | { ok: false; said: string };

/** How long "Copied" stays beside the button (wall time in the page; nothing recorded). A refusal stays until the next click. */
export const COPIED_SHOWN_MS = 2_500;

/** The part of the browser's Clipboard a copy needs (absent: the page has no clipboard access). */
export interface ClipboardWriter {
  writeText(text: string): Promise<void>;
}

/**
 * Writes `text` to the clipboard and says what happened, in the words every copy button shows:
 * "Copied" (and the button's note, if it has one), or "Not copied: <why>".
 */
export async function copyText(
  text: string,
  clipboard: ClipboardWriter | undefined,
  note?: string,
): Promise<CopyOutcome> {
  if (!clipboard)
    return { ok: false, said: 'Not copied: this page has no clipboard access (it needs https or localhost)' };
  try {
    await clipboard.writeText(text);
    return { ok: true, said: note ? `Copied — ${note}` : 'Copied' };
  } catch (error) {
    return { ok: false, said: `Not copied: ${error instanceof Error ? error.message : String(error)}` };
  }
}
