/** What a key press on a run view asks for; `undefined`: not ours, let it through. */
export type RunKeyAction =
  'run' | 'abort' | 'toggle-inspector' | 'close-inspector' | 'next-turn' | 'previous-turn';

export interface RunKeyPress {
  key: string;
  /** Ctrl, Meta or Alt held: the browser's or the system's shortcut, not ours. */
  modified: boolean;
  /** Something nearer the focus already handled it (a popover's Escape closing it). */
  defaultPrevented: boolean;
  /** Focus is in a text field, select or editable region: the key is typing. */
  inField: boolean;
  /** Focus is inside an open dialog: its keys (Escape closes it) are the dialog's. */
  inDialog: boolean;
  inspectorOpen: boolean;
}

/**
 * The run view's shortcuts: r run, a abort, Escape closes the inspector when it is open and
 * aborts otherwise, i toggles the inspector, j / k step between turns. A key meant for a
 * field or a dialog is never taken, so Escape that closes a dialog cannot abort the run.
 */
export function runKeyAction(press: RunKeyPress): RunKeyAction | undefined {
  if (press.modified || press.defaultPrevented || press.inField) return undefined;
  if (press.inDialog) return undefined;
  switch (press.key) {
    case 'r':
      return 'run';
    case 'a':
      return 'abort';
    case 'Escape':
      return press.inspectorOpen ? 'close-inspector' : 'abort';
    case 'i':
      return 'toggle-inspector';
    case 'j':
      return 'next-turn';
    case 'k':
      return 'previous-turn';
    default:
      return undefined;
  }
}
