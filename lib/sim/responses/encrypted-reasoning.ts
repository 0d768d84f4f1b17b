import { signThinking, verifyThinking } from '../signature';

/** The simulated Responses vendor's own secret for reasoning items; fixed so runs repeat. */
export const RESPONSES_SEALING_KEY = 'loop-lab-sim-openai-responses';

/** Fernet tokens, as the real `encrypted_content` is, start with this version-and-time prefix. */
const PREFIX = 'gAAAAAB';

/**
 * A reasoning item's `encrypted_content`: opaque to the client, sealed to the model that
 * minted it and the item's id. Only that model can read it back; any other model (or an
 * item whose id was changed) fails verification, as the real vendor's does.
 */
export function sealReasoning(options: { model: string; itemId: string; key?: string }): string {
  const mac = signThinking({
    key: options.key ?? RESPONSES_SEALING_KEY,
    model: options.model,
    thinking: options.itemId,
  });
  return `${PREFIX}${mac}`;
}

export function unsealReasoning(options: {
  model: string;
  itemId: string;
  content: string;
  key?: string;
}): boolean {
  const { content } = options;
  if (!content.startsWith(PREFIX)) return false;
  return verifyThinking({
    key: options.key ?? RESPONSES_SEALING_KEY,
    model: options.model,
    thinking: options.itemId,
    signature: content.slice(PREFIX.length),
  });
}

/** How the vendor quotes an encrypted content in its error: the first and last four characters. */
export function quoteEncrypted(content: string): string {
  return content.length <= 8 ? content : `${content.slice(0, 4)}...${content.slice(-4)}`;
}
