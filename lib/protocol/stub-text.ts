/**
 * The text a tool result is sent as once it is compacted (old-result compaction or a
 * micro-compact): how big it was and how to get it back. Shared so the browser's "what was
 * sent" view shows exactly what the vendor received.
 */
export function stubText(chars: number): string {
  return `[Older tool result cleared to save context: ${chars} characters. Call the tool again (a narrower read or search) if you still need it.]`;
}
