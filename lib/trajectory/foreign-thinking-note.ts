import { describeMinter } from './credentials';

/**
 * Foreign reasoning kept as plain text, marked so neither the target model nor a reader
 * takes it for the target's own thinking (unmarked, a vendor may read it as an attempt to
 * extract reasoning).
 */
export function foreignThinkingNote(options: {
  from: { vendor: string; model: string } | undefined;
  text: string;
}): string {
  const who = options.from ? describeMinter(options.from) : 'another model';
  return `[Note carried over on a model switch: reasoning written by ${who}, not by you]\n${options.text}`;
}
