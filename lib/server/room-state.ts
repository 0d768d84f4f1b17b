import { EventEmitter } from 'node:events';
import type { RoomNotice } from '@/lib/protocol/http';

/**
 * What the teacher's board keeps of the room besides the store: who joined (their board name,
 * teacher or not, in the order they joined) and the notices sent, with the two streams that tell
 * of them (the board changed; a notice was sent). This process's memory when the server is one
 * process; Redis when LOOP_LAB_REDIS_URL is set (room-state-redis.ts), so that every web instance
 * behind the room's URL keeps one board and every page hears every change.
 */

export interface Present {
  name: string;
  teacher: boolean;
}

/** A notice before it is numbered. */
export type NoticeDraft = RoomNotice extends infer N
  ? N extends { id: number }
    ? Omit<N, 'id'>
    : never
  : never;

export interface RoomState {
  /** A session joined (or joined again): named on its first join, then told as a change. */
  join(visitor: string, teacher: boolean): Promise<void>;
  /** Who joined, in the order they first joined. */
  present(): Promise<[visitor: string, who: Present][]>;
  /** Numbers the notice after the last one sent, keeps it, and tells it (and a change). */
  addNotice(draft: NoticeDraft): Promise<RoomNotice>;
  /** The kept notices after `afterId`, oldest first. */
  noticesAfter(afterId: number): Promise<RoomNotice[]>;
  lastNotice(): Promise<RoomNotice | null>;
  /** Tells every board stream that the board may have changed. */
  changed(): Promise<void>;
  /**
   * Calls `listener` on each change from now on (and after a lost connection to Redis came
   * back); resolves once it is listening, with the function that stops it.
   */
  onChange(listener: () => void): Promise<() => void>;
  /**
   * Calls `listener` with each notice sent from now on; after a lost connection to Redis came
   * back, with every kept one (a listener skips those it had). Resolves once it is listening.
   */
  onNotice(listener: (notice: RoomNotice) => void): Promise<() => void>;
  close(): Promise<void>;
}

/** How many notices are kept for a page that reconnects (Last-Event-ID). */
export const KEPT_NOTICES = 50;

/** The teacher's name on the board. */
export const TEACHER_NAME = 'the teacher';

/** A joiner's board name: the teacher's, or visitors numbered in the order they joined (room-state-redis.ts's script names them so too). */
export function boardName(teacher: boolean, visitorsBefore: number): string {
  return teacher ? TEACHER_NAME : `visitor ${visitorsBefore + 1}`;
}

/** The room kept in this process's memory: the server is one process. */
export function createMemoryRoomState(): RoomState {
  const present = new Map<string, Present>();
  const notices: RoomNotice[] = [];
  const events = new EventEmitter();
  // Every board and every visitor's page listens: a room of any size.
  events.setMaxListeners(0);
  const listen = <T extends unknown[]>(name: string, listener: (...args: T) => void) => {
    events.on(name, listener);
    return Promise.resolve(() => void events.off(name, listener));
  };
  return {
    async join(visitor, teacher) {
      const known = present.get(visitor);
      const visitors = [...present.values()].filter((who) => !who.teacher).length;
      present.set(visitor, { name: known?.name ?? boardName(teacher, visitors), teacher });
      events.emit('change');
    },
    async present() {
      return [...present];
    },
    async addNotice(draft) {
      const notice = { id: (notices.at(-1)?.id ?? 0) + 1, ...draft } as RoomNotice;
      notices.push(notice);
      if (notices.length > KEPT_NOTICES) notices.shift();
      events.emit('notice', notice);
      events.emit('change');
      return notice;
    },
    async noticesAfter(afterId) {
      return notices.filter((notice) => notice.id > afterId);
    },
    async lastNotice() {
      return notices.at(-1) ?? null;
    },
    async changed() {
      events.emit('change');
    },
    onChange: (listener) => listen('change', listener),
    onNotice: (listener) => listen('notice', listener),
    async close() {
      events.removeAllListeners();
    },
  };
}
