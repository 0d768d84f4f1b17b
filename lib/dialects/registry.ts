import { dialectIdOf, vendorRow, type DialectId, type Vendor } from '@/lib/protocol';
import { anthropicMessages } from './anthropic-messages';
import { deepseekReasoning } from './deepseek-reasoning';
import { openaiChat } from './openai-chat';
import { openaiCompatible } from './openai-compatible';
import { openaiResponses } from './openai-responses';
import type { DialectModule } from './types';

const modules = new Map<DialectId, DialectModule>();

/**
 * Adds a dialect module under its id, the id a vendor row's `dialect` names; returns what
 * removes it again (for a test's fixture). Throws when the id is taken.
 */
export function registerDialect(module: DialectModule): () => void {
  if (modules.has(module.id)) throw new Error(`dialect "${module.id}" is already registered`);
  modules.set(module.id, module);
  return () => {
    if (modules.get(module.id) === module) modules.delete(module.id);
  };
}

for (const module of [anthropicMessages, openaiChat, deepseekReasoning, openaiCompatible, openaiResponses]) {
  registerDialect(module);
}

/** Every registered dialect module (the built-in ones first). */
export function dialects(): readonly DialectModule[] {
  return [...modules.values()];
}

/**
 * The dialect a vendor and model speak: the module the vendor's row names (its model-prefix
 * rules first). Throws when no module has that id, or the module speaks another wire format
 * than the row.
 */
export function dialectFor(options: { vendor: Vendor; model: string }): DialectModule {
  const id = dialectIdOf(options.vendor, options.model);
  const module = modules.get(id);
  if (!module) {
    throw new Error(
      `vendor "${options.vendor}" speaks dialect "${id}", which no module registers (the dialects are ${[...modules.keys()].join(', ')})`,
    );
  }
  const wire = vendorRow(options.vendor).wire;
  if (module.wire !== wire) {
    throw new Error(
      `vendor "${options.vendor}" speaks the ${wire} wire format, but its dialect "${id}" renders ${module.wire}`,
    );
  }
  return module;
}
