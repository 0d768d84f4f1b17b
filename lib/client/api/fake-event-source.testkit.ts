import { vi } from 'vitest';

/** A stand-in for the browser's EventSource: the test plays the server's side. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  readyState = FakeEventSource.CONNECTING;
  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }
  get closed(): boolean {
    return this.readyState === FakeEventSource.CLOSED;
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  send(data: string) {
    this.onmessage?.({ data });
  }
  /** The connection dropped; `giveUp`: the browser will not reconnect. */
  drop(giveUp: boolean) {
    this.readyState = giveUp ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.();
  }
}

/** Puts the stand-in in place of the global EventSource for one test (undo with vi.unstubAllGlobals). */
export function stubEventSource(): void {
  FakeEventSource.made = [];
  vi.stubGlobal('EventSource', FakeEventSource);
}
