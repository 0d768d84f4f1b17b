import type { Message, Part } from '@/lib/protocol';
import type { StreamPart } from '@/lib/providers/types';

/**
 * Streamed text is kept as pieces and joined once: `+=` per delta would leave a rope that
 * every later request has to flatten again when the SDK serialises the conversation.
 */
type Block =
  | { kind: 'text'; pieces: string[] }
  | { kind: 'thinking'; pieces: string[]; signature?: string; itemId?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; pieces: string[]; closed?: boolean };

/**
 * Folds stream parts into the neutral assistant message, block by block. It can be read at
 * any moment: a response cut short yields exactly what had arrived.
 */
export class MessageAssembler {
  private readonly blocks = new Map<number, Block>();

  constructor(
    private readonly vendor: string,
    private model: string,
  ) {}

  /** The model that actually answered (the response may name a dated variant). */
  setModel(model: string): void {
    this.model = model;
  }

  add(part: StreamPart): void {
    switch (part.type) {
      case 'text-delta': {
        const block = this.blocks.get(part.index) ?? this.open(part.index, { kind: 'text', pieces: [] });
        if (block.kind === 'text') block.pieces.push(part.text);
        return;
      }
      case 'thinking-delta': {
        const block = this.blocks.get(part.index) ?? this.open(part.index, { kind: 'thinking', pieces: [] });
        if (block.kind === 'thinking') block.pieces.push(part.text);
        return;
      }
      case 'thinking-signature': {
        const block = this.blocks.get(part.index) ?? this.open(part.index, { kind: 'thinking', pieces: [] });
        if (block.kind === 'thinking') {
          block.signature = part.signature;
          if (part.itemId !== undefined) block.itemId = part.itemId;
        }
        return;
      }
      case 'redacted-thinking':
        this.blocks.set(part.index, { kind: 'redacted', data: part.data });
        return;
      case 'tool-call-start':
        this.blocks.set(part.index, { kind: 'tool', id: part.id, name: part.name, pieces: [] });
        return;
      case 'tool-call-delta': {
        const block = this.blocks.get(part.index);
        if (block?.kind === 'tool') block.pieces.push(part.argsText);
        return;
      }
      case 'block-stop': {
        const block = this.blocks.get(part.index);
        if (block?.kind === 'tool') block.closed = true;
        return;
      }
      default:
        return;
    }
  }

  /** Whether any content (not just headers) has arrived: the watchdog's Empty/Partial line. */
  get hasContent(): boolean {
    return this.blocks.size > 0;
  }

  /**
   * The message so far. With `dropIncompleteTools`, tool calls the vendor never closed are
   * left out, even when their arguments happen to parse: a half-sent call cannot be run.
   */
  message(options: { dropIncompleteTools?: boolean } = {}): Message {
    const parts: Part[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const block = this.blocks.get(index)!;
      const part = this.toPart(block, options.dropIncompleteTools ?? false);
      if (part) parts.push(part);
    }
    return { role: 'assistant', parts };
  }

  private toPart(block: Block, dropIncompleteTools: boolean): Part | undefined {
    switch (block.kind) {
      case 'text': {
        const text = block.pieces.join('');
        return text.length > 0 ? { type: 'text', text } : undefined;
      }
      case 'thinking':
        return {
          type: 'thinking',
          text: block.pieces.join(''),
          origin: { vendor: this.vendor, model: this.model },
          ...(block.signature
            ? {
                credential: {
                  vendor: this.vendor,
                  model: this.model,
                  signature: block.signature,
                  ...(block.itemId !== undefined ? { item: block.itemId } : {}),
                },
              }
            : {}),
        };
      case 'redacted':
        return { type: 'redacted_thinking', data: block.data, vendor: this.vendor, model: this.model };
      case 'tool': {
        const argsText = block.pieces.join('');
        const args = parseObject(argsText.trim() === '' ? '{}' : argsText);
        if (dropIncompleteTools && (!block.closed || !args)) return undefined;
        return { type: 'tool_call', id: block.id, name: block.name, argsText, ...(args ? { args } : {}) };
      }
    }
  }

  /** Starts the block at `index` (looked up first by the caller: a delta per token must not allocate a factory). */
  private open(index: number, block: Block): Block {
    this.blocks.set(index, block);
    return block;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
