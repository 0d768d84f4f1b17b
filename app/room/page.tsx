import type { Metadata } from 'next';
import { JoinRoomForm } from '@/components/room/join-room-form';

export const metadata: Metadata = { title: 'Join the room · Loop Lab' };

/** Room mode's door (docs/room-mode.md): the code once, then the playground as the visitor's own. */
export default function RoomPage() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-3 p-4">
      <div>
        <h1 className="text-sm font-semibold">Join the room</h1>
        <p className="text-2xs text-muted">
          This Loop Lab is shared by a class. Enter the room code your teacher gives you, once: the runs,
          sweeps, cassettes and prompt sets you make are then yours, and nobody else in the room sees them.
        </p>
      </div>
      <JoinRoomForm />
    </div>
  );
}
